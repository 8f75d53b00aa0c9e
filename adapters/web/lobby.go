package web

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// lobbyPage is the data of the lobby.
type lobbyPage struct {
	Name     string // the visitor's name, in the banner
	Host     bool
	MayStart bool // the host, or anyone when the lobby is open
	Nonce    string
	Rules    []string
	Agents   []agentOption // every bot agent; those the chosen preset offers are shown
	Presets  []presetOption
	NoPreset string // the server's defaults, as presetJSON: the form's settings without a preset
	Zone     string // the server's time zone, in which a start time is read
	// Votes and Rates say whether the chosen preset's tables vote (the
	// Facilitator's vote is then a choice) and judge items (a panel).
	Votes, Rates bool
	Form         map[string]string // the form's single fields, as entered (or the defaults)
	Error        []string
	Rooms        []roomLink
	// values are the form as entered, for the fields with several
	// values (check boxes): an error gives back what was ticked.
	values url.Values
}

// Has reports whether the form's check box name with value value is
// ticked: as entered, or by the defaults on a fresh form.
func (pg lobbyPage) Has(name, value string) bool { return slices.Contains(pg.values[name], value) }

type roomLink struct {
	ID, Title, Created, Link string
}

// startFields are the create form's fields passed on as start options
// (with a panel's items, itemFields).
var startFields = append([]string{"topic", "title", "preset", "rule", "rounds", "early_stop", "mode", "message", "proposal", "vote", "join",
	"audit", "audit_statement", "self_report", "secret", "start", "seats", "start_at", "people", "facilitator_votes"}, itemFields()...)

func (p *Platform) serveLobby(w http.ResponseWriter, r *http.Request) {
	v := p.visitor(w, r)
	p.render(w, http.StatusOK, "lobby", p.lobbyPage(r.Context(), v, nil, nil))
}

func (p *Platform) lobbyPage(ctx context.Context, v visitor, form url.Values, errs []string) lobbyPage {
	pg := lobbyPage{Name: v.Name, Host: v.Host, MayStart: v.Host || p.cfg.OpenLobby, Nonce: randomID(12), Rules: p.cfg.Rules,
		Form: map[string]string{}, Error: errs, values: form, Zone: p.cfg.Now().Format("MST (UTC-07:00)")}
	pg.NoPreset = p.cfg.Defaults.presetJSON(p.offer(""))
	for _, name := range p.cfg.Presets {
		pg.Presets = append(pg.Presets, presetOption{Name: name, Settings: p.cfg.PresetTables[name].presetJSON(p.offer(name))})
	}
	if len(pg.Rules) == 0 {
		for _, r := range vote.Rules() {
			pg.Rules = append(pg.Rules, string(r))
		}
	}
	if form == nil {
		defaults := p.cfg.Defaults.formValues()
		pg.values = url.Values{"agents": p.cfg.Defaults.Agents}
		for _, f := range startFields {
			pg.Form[f] = defaults[f]
		}
	}
	for _, f := range startFields {
		if form != nil {
			pg.Form[f] = form.Get(f)
		}
	}
	pg.Form["name"] = v.Name
	if form.Has("name") { // a refused name stays in its field, beside the reason
		pg.Form["name"] = form.Get("name")
	}
	if pg.Form["rule"] == "" {
		pg.Form["rule"] = string(vote.Plurality)
	}
	pg.Agents = p.agentOptions(pg.Form["preset"])
	chosen, ok := p.cfg.PresetTables[pg.Form["preset"]]
	if !ok {
		chosen = p.cfg.Defaults
	}
	pr := chosen.Config.Protocol
	pg.Votes, pg.Rates = pr.Plays(roundtable.PhaseVote), rates(pr)
	if v.Host {
		rooms, err := p.roomList(ctx)
		if err != nil {
			pg.Error = append(pg.Error, err.Error())
		}
		for _, rm := range rooms {
			pg.Rooms = append(pg.Rooms, roomLink{ID: rm.ID, Title: rm.Title, Created: rm.Created.Format("2 Jan 15:04"),
				Link: "/r/" + rm.ID + "?k=" + p.keys.token(purposeJoin, rm.ID)})
		}
	}
	return pg
}

// serveHost takes the host link: the browser may manage every table.
func (p *Platform) serveHost(w http.ResponseWriter, r *http.Request) {
	k := r.URL.Query().Get("k")
	if !p.keys.valid(purposeHost, "host", k) {
		p.renderMessage(w, http.StatusForbidden, "Not the host link", "This link does not make you the host of this server.")
		return
	}
	p.visitor(w, r)
	p.setCookie(w, cookieHost, k)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// serveName sets the browser's display name.
func (p *Platform) serveName(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		code, msg := bodyError(err, p.cfg.MaxBody)
		p.renderMessage(w, code, "Name not set", msg)
		return
	}
	v := p.visitor(w, r)
	name := cleanName(r.PostForm.Get("name"))
	next := localPath(r.PostForm.Get("next"))
	if why := nameProblem(name); why != "" {
		if !p.refuseName(w, r, v, next, name, why) {
			p.renderMessage(w, http.StatusBadRequest, "Name not set", why)
		}
		return
	}
	p.setName(w, name)
	if room, ok := strings.CutPrefix(next, "/r/"); ok && r.PostForm.Get("seat") == "yes" && validID(room) {
		http.SetCookie(w, &http.Cookie{Name: cookieSeat + room, Value: "yes", Path: "/", MaxAge: 300, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

var localPathRE = regexp.MustCompile(`^/[A-Za-z0-9/_-]*$`)

// localPath keeps redirects on this server.
func localPath(s string) string {
	if !localPathRE.MatchString(s) || strings.HasPrefix(s, "//") {
		return "/"
	}
	return s
}

// serveStart creates a table: the create form becomes the bot's start
// command in the lobby, and the creator goes to the new room as its
// organiser.
func (p *Platform) serveStart(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		code, msg := bodyError(err, p.cfg.MaxBody)
		p.renderMessage(w, code, "Table not started", msg)
		return
	}
	v := p.visitor(w, r)
	form := r.PostForm
	var nameErr string
	if name := cleanName(form.Get("name")); name != "" {
		if nameErr = nameProblem(name); nameErr == "" {
			v.Name = name
			p.setName(w, name)
		}
	}
	nonce := form.Get("nonce")
	if !p.cfg.OpenLobby && !v.Host {
		// The page says why; nothing is kept for a visitor without a link.
		p.render(w, http.StatusForbidden, "lobby", p.lobbyPage(r.Context(), v, form, []string{formWords.notHost}))
		return
	}
	errs := append(p.startErrors(v, nonce), formUTF8Errors(form)...)
	if nameErr != "" {
		errs = append([]string{nameErr}, errs...)
	}
	if len(errs) == 0 {
		errs = formProblems(form)
	}
	h := p.currentHandler()
	if len(errs) == 0 && h == nil {
		w.Header().Set("Retry-After", "1")
		p.render(w, http.StatusServiceUnavailable, "lobby", p.lobbyPage(r.Context(), v, form, []string{formWords.notRunning}))
		return
	}
	if len(errs) > 0 {
		p.render(w, http.StatusBadRequest, "lobby", p.lobbyPage(r.Context(), v, form, errs))
		return
	}
	ev := &bot.Event{Platform: Name, Kind: bot.KindCommand, ID: "u:" + v.ID + ":" + nonce, Command: "start",
		User: bot.User{ID: v.ID, Name: v.Name, Manager: v.Host}, Channel: Lobby, Options: startOptions(form), Native: v.ID}
	out := outcome{Room: p.starts.get(ev.ID)}
	if out.Room == "" {
		if _, first := p.seen.add(ev.ID, struct{}{}); first {
			out = p.deliver(r.Context(), h, ev)
			if out.Refusal.Code != "" {
				out.Room = "" // a room opened for a table that was not made (its store write failed): the page says why
			}
			if out.Room != "" {
				p.starts.put(ev.ID, out.Room)
			}
		}
	}
	room := out.Room
	if room == "" {
		code, replies := status(out.Refusal.Code), out.Replies
		if len(replies) == 0 {
			code, replies = http.StatusConflict, []string{formWords.sentTwice}
		}
		for i, r := range replies {
			replies[i] = pageReason(r)
		}
		p.render(w, code, "lobby", p.lobbyPage(r.Context(), v, form, replies))
		return
	}
	for _, text := range out.Replies { // the start reply, with the starter's private brief, belongs to the room
		p.inbox.add(v.ID, privItem{Channel: room, Kind: privText, Text: text, Waiting: p.waits(r.Context(), room)}, nil)
	}
	p.setCookie(w, cookieOrganiser+room, p.keys.token(purposeOrganiser, room))
	p.setCookie(w, cookieJoin+room, p.keys.token(purposeJoin, room))
	http.Redirect(w, r, "/r/"+room, http.StatusSeeOther)
}

func (p *Platform) startErrors(v visitor, nonce string) []string {
	var errs []string
	if v.Name == "" {
		errs = append(errs, formWords.needName)
	}
	if !validID(nonce) {
		errs = append(errs, formWords.outOfDate)
	}
	return errs
}

// startOptions turns the create form into the start command's options.
func startOptions(form url.Values) map[string]string {
	opts := map[string]string{}
	for _, f := range startFields {
		if v := strings.TrimSpace(form.Get(f)); v != "" {
			opts[f] = v
		}
	}
	for _, d := range []string{"message", "proposal", "vote"} {
		if v := opts[d]; v != "" && strings.Trim(v, "0123456789") == "" {
			opts[d] = v + "s" // plain numbers are seconds
		}
	}
	if opts["join"] == "yes" {
		delete(opts, "join")
	}
	startChoice(form, opts)
	if list := slices.DeleteFunc(form["audit"], func(s string) bool { return s == "" }); len(list) > 0 {
		opts["audit"] = strings.Join(list, ",")
	}
	if form.Has("agents_set") {
		opts["agents"] = strings.Join(slices.DeleteFunc(form["agents"], func(s string) bool { return s == "" }), ",")
	}
	return opts
}
