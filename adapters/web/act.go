package web

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// actRequest is what the room page posts for a user's act.
type actRequest struct {
	// ID is made by the page per act and kept on a retry, so a retried
	// request is one act.
	ID      string            `json:"id"`
	Kind    string            `json:"kind"` // message, action, submit or command
	Text    string            `json:"text,omitempty"`
	Action  string            `json:"action,omitempty"`
	Values  []string          `json:"values,omitempty"`
	Fields  map[string]string `json:"fields,omitempty"`
	Command string            `json:"command,omitempty"`
	Options map[string]string `json:"options,omitempty"`
}

// actResponse answers an act; the bot's replies arrive on the live
// stream, and are repeated here for clients without it.
type actResponse struct {
	OK      bool     `json:"ok"`
	Error   string   `json:"error,omitempty"` // why it was refused
	Replies []string `json:"replies,omitempty"`
}

// commandOptions lists the commands a room accepts and their options.
var commandOptions = map[string][]string{
	"join": nil, "leave": nil, "status": nil, "help": nil, "stop": nil, "close": nil, "begin": nil,
	"propose": {"text"}, "vote": {"ballot", "reason"}, "export": {"format", "names"},
	"extend": {"by"},
}

// Limits of an act beyond the body size.
const (
	maxValues = 50
	maxFields = 50
)

func (p *Platform) serveAct(w http.ResponseWriter, r *http.Request) {
	roomID := r.PathValue("room")
	v := p.visitor(w, r)
	if !p.mayOpen(r, roomID, false) {
		writeError(w, http.StatusForbidden, "open this table's join link first")
		return
	}
	var req actRequest
	if err := decodeJSON(r.Body, &req); err != nil {
		code, msg := bodyError(err, p.cfg.MaxBody)
		writeError(w, code, msg)
		return
	}
	if v.Name == "" {
		writeError(w, http.StatusBadRequest, "choose a name first")
		return
	}
	req.Text = bot.Visible(req.Text) // what people's clients do not show goes at the edge
	ev, err := p.event(r, v, roomID, req)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	ev.Strip()
	h := p.currentHandler()
	if h == nil {
		writeError(w, http.StatusServiceUnavailable, "the table service is not running; try again in a moment")
		return
	}
	logged, first := p.acts.add(ev.ID, newLoggedAct())
	if !first { // a retry: the first request's answer
		if code, resp, ok := logged.wait(r.Context()); ok {
			writeJSON(w, code, resp)
		}
		return
	}
	code, resp := http.StatusInternalServerError, actResponse{Error: "internal error"}
	defer func() { logged.finish(code, resp) }()
	out := p.deliver(r.Context(), h, ev)
	code = status(out.Refusal.Code)
	if ev.Kind == bot.KindCommand && ev.Command == "leave" && code == http.StatusOK {
		p.studyLeft(r.Context(), v.ID, roomID)
	}
	resp = actResponse{OK: code == http.StatusOK, Error: out.Refusal.Reason, Replies: out.Replies}
	writeJSON(w, code, resp)
}

// deliver hands ev to the bot and returns what became of it.
func (p *Platform) deliver(ctx context.Context, h bot.Handler, ev *bot.Event) outcome {
	n := &note{user: ev.User.ID}
	ctx = context.WithValue(context.WithoutCancel(ctx), noteKey{}, n)
	if bot.Joins(ev) {
		defer p.joins.lock(ev.Channel)()
	}
	if refusal := p.refuse(ctx, ev); refusal.Code != "" {
		_ = p.Reply(ctx, ev, bot.Reply{Text: refusal.Reason, Ephemeral: true, Refused: refusal.Code})
	} else {
		h(ctx, ev)
		if ev.Kind == bot.KindMessage {
			p.echo(ctx, ev)
		}
	}
	return n.result()
}

// event turns a request into the bot's event, checking what the bot
// would only check later or not at all.
func (p *Platform) event(r *http.Request, v visitor, roomID string, req actRequest) (*bot.Event, error) {
	id := req.ID
	if id == "" {
		id = randomID(12)
	}
	if !validID(id) {
		return nil, fmt.Errorf("bad action ID")
	}
	info, _ := p.rooms.info(roomID)
	ev := &bot.Event{Platform: Name, ID: "u:" + v.ID + ":" + id, User: p.user(r, v, roomID),
		Channel: roomID, Parent: info.Parent, Native: v.ID}
	switch req.Kind {
	case string(bot.KindMessage):
		if name, opts, ok := typedCommand(req.Text); ok {
			return ev, commandEvent(ev, name, opts)
		}
		return ev, messageEvent(ev, req.Text)
	case string(bot.KindAction):
		ev.Kind, ev.Action, ev.Values = bot.KindAction, req.Action, req.Values
		return ev, checkStrings(append([]string{req.Action}, req.Values...), maxValues)
	case string(bot.KindSubmit):
		if isSurvey(req.Action) {
			commaDecimals(req.Fields)
		}
		ev.Kind, ev.Action, ev.Fields = bot.KindSubmit, req.Action, req.Fields
		return ev, checkFields(req.Action, req.Fields)
	case string(bot.KindCommand):
		return ev, commandEvent(ev, req.Command, req.Options)
	}
	return nil, fmt.Errorf("unknown kind of act %q", req.Kind)
}

// commaDecimal is a number written with a decimal comma, as much of the
// world writes it: "0,5", "-1,25".
var commaDecimal = regexp.MustCompile(`^\s*[-+−]?\d*,\d+\s*$`)

// commaDecimals reads a survey's answers written with a decimal comma
// as the numbers they are ("0,5" is 0.5).
func commaDecimals(fields map[string]string) {
	for k, v := range fields {
		if commaDecimal.MatchString(v) {
			fields[k] = strings.Replace(strings.Replace(v, ",", ".", 1), "−", "-", 1)
		}
	}
}

func messageEvent(ev *bot.Event, text string) error {
	ev.Kind, ev.Text = bot.KindMessage, strings.TrimSpace(text)
	switch {
	case ev.Text == "":
		return fmt.Errorf("the message is empty")
	case !utf8.ValidString(ev.Text):
		return fmt.Errorf("the message is not valid UTF-8")
	case len(ev.Text) > roundtable.MaxTextLen:
		return fmt.Errorf("the message is %d bytes long; the limit is %d", len(ev.Text), roundtable.MaxTextLen)
	}
	return nil
}

func commandEvent(ev *bot.Event, name string, opts map[string]string) error {
	allowed, ok := commandOptions[name]
	if !ok {
		return fmt.Errorf("unknown command %q", name)
	}
	ev.Kind, ev.Command, ev.Options = bot.KindCommand, name, map[string]string{}
	for _, k := range allowed {
		if v, ok := opts[k]; ok {
			ev.Options[k] = v
		}
	}
	return checkFields("", ev.Options)
}

func checkFields(action string, fields map[string]string) error {
	if len(fields) > maxFields {
		return fmt.Errorf("too many fields (%d; the limit is %d)", len(fields), maxFields)
	}
	all := []string{action}
	for k, v := range fields {
		all = append(all, k, v)
	}
	return checkStrings(all, 2*maxFields+1)
}

func checkStrings(ss []string, most int) error {
	if len(ss) > most {
		return fmt.Errorf("too many values (%d; the limit is %d)", len(ss), most)
	}
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return fmt.Errorf("a value is not valid UTF-8")
		}
		if len(s) > roundtable.MaxTextLen {
			return fmt.Errorf("a value is %d bytes long; the limit is %d", len(s), roundtable.MaxTextLen)
		}
	}
	return nil
}

// refuse returns why the web channel refuses an act before the bot sees
// it: a control of another table; a join under a name that is not the
// joiner's own; what only someone who may manage the table may do
// (bot.ManagerOnly: stopping it, exporting it with names, ...) from
// someone who may not (the bot decides, given the organiser's or the
// host's link).
func (p *Platform) refuse(ctx context.Context, ev *bot.Event) refusal {
	if r := p.checkPlace(ctx, ev); r.Code != "" {
		return r
	}
	if bot.Joins(ev) {
		if r := p.checkName(ctx, ev); r.Code != "" {
			return r
		}
	}
	if what := bot.ManagerOnly(ev); what != "" && !p.mayManage(ctx, ev.Channel, ev.User) {
		return refusal{roundtable.Forbidden, "Refused: only whoever started this table (with its organiser link) can " + what + "."}
	}
	return refusal{}
}

// mayManage reports whether u may manage the table in a room: the bot
// decides, from u.Manager (the organiser's or the host's link) and who
// started the table. Without a table, the link decides.
func (p *Platform) mayManage(ctx context.Context, room string, u bot.User) bool {
	if u.Manager || p.tables == nil {
		return u.Manager
	}
	ok, err := p.tables.MayManage(ctx, room, u)
	if err != nil && roundtable.ErrorCode(err) != roundtable.NotFound {
		p.log.Warn("check who may manage a table", "room", room, "err", err)
	}
	return ok && err == nil
}

// organiser reports whether the visitor may manage the table in room:
// names on its dashboard and downloads are theirs.
func (p *Platform) organiser(r *http.Request, v visitor, room string) bool {
	return p.mayManage(r.Context(), room, p.user(r, v, room))
}
