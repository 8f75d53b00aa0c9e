package web

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// lobbyPage is the data of the lobby.
type lobbyPage struct {
	Name    string
	Host    bool
	Nonce   string
	Rules   []string
	Agents  []string
	Presets []string
	Checked map[string]bool
	Form    map[string]string
	Error   []string
	Rooms   []roomLink
}

type roomLink struct {
	ID, Title, Created, Link string
}

// startFields are the create form's fields passed on as start options.
var startFields = []string{"topic", "title", "preset", "rule", "rounds", "early_stop", "mode", "message", "proposal", "vote", "join", "secret"}

func (p *Platform) serveLobby(w http.ResponseWriter, r *http.Request) {
	v := p.visitor(w, r)
	p.render(w, http.StatusOK, "lobby", p.lobbyPage(v, nil, nil))
}

func (p *Platform) lobbyPage(v visitor, form url.Values, errs []string) lobbyPage {
	pg := lobbyPage{Name: v.Name, Host: v.Host, Nonce: randomID(12), Rules: p.cfg.Rules, Agents: p.cfg.Agents,
		Presets: p.cfg.Presets, Checked: map[string]bool{}, Form: map[string]string{}, Error: errs}
	if len(pg.Rules) == 0 {
		for _, r := range vote.Rules() {
			pg.Rules = append(pg.Rules, string(r))
		}
	}
	for _, f := range startFields {
		pg.Form[f] = form.Get(f)
	}
	if pg.Form["rule"] == "" {
		pg.Form["rule"] = string(vote.Plurality)
	}
	for _, a := range form["agents"] {
		pg.Checked[a] = true
	}
	if v.Host {
		for _, rm := range p.rooms.list(Lobby) {
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
	p.visitor(w, r)
	name := cleanName(r.PostForm.Get("name"))
	if name == "" {
		p.renderMessage(w, http.StatusBadRequest, "Name not set", "Please choose a name with at least one letter.")
		return
	}
	p.setName(w, name)
	http.Redirect(w, r, localPath(r.PostForm.Get("next")), http.StatusSeeOther)
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
	if name := cleanName(form.Get("name")); name != "" {
		v.Name = name
		p.setName(w, name)
	}
	nonce := form.Get("nonce")
	errs := p.startErrors(v, nonce)
	h := p.currentHandler()
	if len(errs) == 0 && h == nil {
		errs = []string{"The table service is not running; try again in a moment."}
		w.Header().Set("Retry-After", "1")
		p.render(w, http.StatusServiceUnavailable, "lobby", p.lobbyPage(v, form, errs))
		return
	}
	if len(errs) > 0 {
		p.render(w, http.StatusBadRequest, "lobby", p.lobbyPage(v, form, errs))
		return
	}
	ev := &bot.Event{Platform: Name, Kind: bot.KindCommand, ID: "u:" + v.ID + ":" + nonce, Command: "start",
		User: bot.User{ID: v.ID, Name: v.Name, Manager: v.Host}, Channel: Lobby, Options: startOptions(form), Native: v.ID}
	room, replies := p.starts.get(ev.ID), []string(nil)
	if room == "" && p.seen.first(ev.ID) {
		room, replies = p.deliver(r.Context(), h, ev)
		if room != "" {
			p.starts.put(ev.ID, room)
		}
	}
	if room == "" {
		if len(replies) == 0 {
			replies = []string{"This form was already sent; reload the page to start another table."}
		}
		p.render(w, http.StatusOK, "lobby", p.lobbyPage(v, form, replies))
		return
	}
	p.setCookie(w, cookieOrganiser+room, p.keys.token(purposeOrganiser, room))
	p.setCookie(w, cookieJoin+room, p.keys.token(purposeJoin, room))
	http.Redirect(w, r, "/r/"+room, http.StatusSeeOther)
}

func (p *Platform) startErrors(v visitor, nonce string) []string {
	var errs []string
	if v.Name == "" {
		errs = append(errs, "Please give your name.")
	}
	if !validID(nonce) {
		errs = append(errs, "The form is out of date; reload the page.")
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
	if form.Has("agents_set") {
		opts["agents"] = strings.Join(slices.DeleteFunc(form["agents"], func(s string) bool { return s == "" }), ",")
	}
	return opts
}

// startLog remembers which room each start event opened, so a retried
// form goes to the same room.
type startLog struct {
	mu    sync.Mutex
	n     int
	rooms map[string]string
	order []string
}

func newStartLog(n int) *startLog { return &startLog{n: n, rooms: map[string]string{}} }

func (s *startLog) get(evID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rooms[evID]
}

// put records the room the bot opened for evID.
func (s *startLog) put(evID, room string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rooms[evID] = room
	s.order = append(s.order, evID)
	if len(s.order) > s.n {
		delete(s.rooms, s.order[0])
		s.order = s.order[1:]
	}
}
