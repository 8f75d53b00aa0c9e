package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	rtvote "github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

func TestRefusalsAnswer4xxWithTheReason(t *testing.T) {
	e := newLiveEnv(t, web.Config{})
	room, ann, bob := e.twoPeople(t)

	if code, a := e.act(t, bob, room, map[string]any{"kind": "message", "text": "hi"}); code != http.StatusConflict || !strings.Contains(a.Error, "you have not joined") {
		t.Errorf("a message before joining: %d %+v; want 409", code, a)
	}
	if code, a := e.act(t, bob, room, map[string]any{"kind": "command", "command": "join"}); code != http.StatusOK || !a.OK {
		t.Fatalf("join: %d %+v", code, a)
	}
	for _, c := range []struct {
		name string
		act  map[string]any
		code int
		why  string
	}{
		{"a proposal in the message phase", map[string]any{"kind": "command", "command": "propose", "options": map[string]string{"text": "Soup"}}, http.StatusConflict, "phase"},
		{"a ballot that does not parse", map[string]any{"kind": "command", "command": "vote", "options": map[string]string{"ballot": "A > > B"}}, http.StatusUnprocessableEntity, "ballot not recorded"},
		{"stop without the organiser link", map[string]any{"kind": "command", "command": "stop"}, http.StatusForbidden, "organiser link"},
		{"an empty message", map[string]any{"kind": "message", "text": "  "}, http.StatusBadRequest, "empty"},
	} {
		code, a := e.act(t, bob, room, c.act)
		if code != c.code || a.OK || a.Error == "" || !strings.Contains(a.Error, c.why) {
			t.Errorf("%s: %d %+v; want %d with %q", c.name, code, a, c.code, c.why)
		}
	}
	if code, a := e.act(t, ann, room, map[string]any{"kind": "message", "text": "Soup, anyone?"}); code != http.StatusOK || !a.OK {
		t.Errorf("a recorded message: %d %+v", code, a)
	}
	if code, a := e.act(t, ann, room, map[string]any{"kind": "message", "text": "And bread"}); code != http.StatusConflict || !strings.Contains(a.Error, "already sent your message") {
		t.Errorf("a second message in a round: %d %+v", code, a)
	}
	if s := e.state(t, room); len(s.Participants) != 2 {
		t.Errorf("participants %+v: refusals seated someone", s.Participants)
	}
}

func TestInternalErrorsAnswer5xx(t *testing.T) {
	e := newLiveEnv(t, web.Config{})
	ann := e.browser(t, "Ann")
	room, _ := e.start(t, ann, nil)
	if err := e.db.Close(); err != nil { // every read and write now fails
		t.Fatal(err)
	}
	code, a := e.act(t, ann, room, map[string]any{"kind": "command", "command": "status"})
	if code != http.StatusInternalServerError || a.OK || !strings.Contains(a.Error, "internal error") {
		t.Errorf("status with a closed store: %d %+v; want 500 internal error", code, a)
	}
}

func TestStartRefusalsAnswer4xx(t *testing.T) {
	e := newLiveEnv(t, web.Config{})
	ann := e.browser(t, "Ann")
	e.send(t, ann, "GET", e.p.HostURL(), nil)
	cases := []struct {
		what, nonce, topic, rule string
		code                     int
		want                     string
	}{
		{"an unknown rule", "n1", "Lunch?", "dictator", http.StatusUnprocessableEntity, "dictator"},
		{"a Latin-1 topic", "n2", "caf\xe9?", "plurality", http.StatusBadRequest, "The field &#34;topic&#34; is not valid UTF-8 (first bad byte at offset 3)"},
	}
	for _, c := range cases {
		code, body := e.send(t, ann, "POST", "/start", url.Values{"nonce": {c.nonce}, "topic": {c.topic}, "rule": {c.rule}})
		if code != c.code || !strings.Contains(body, c.want) {
			t.Errorf("start with %s: %d, want %d and %q: %s", c.what, code, c.code, c.want, body)
		}
	}
	if _, lobby := e.send(t, ann, "GET", "/", nil); strings.Contains(lobby, "caf\xe9") {
		t.Errorf("the lobby shows the refused topic's bytes")
	}
}

func TestOnlyTheHostLinkCreatesTablesUnlessTheLobbyIsOpen(t *testing.T) {
	closed := newLiveEnv(t, web.Config{})
	bob := closed.browser(t, "Bob")
	if _, page := closed.send(t, bob, "GET", "/", nil); strings.Contains(page, `action="/start"`) || !strings.Contains(page, "join link") {
		t.Errorf("the closed lobby shows the create form to a guest")
	}
	code, page := closed.send(t, bob, "POST", "/start", url.Values{"nonce": {"n1"}, "topic": {"Lunch?"}})
	if code != http.StatusForbidden || !strings.Contains(page, "only its host creates tables") {
		t.Errorf("a guest's start: %d; want 403 naming the host link", code)
	}
	open := newLiveEnvWith(t, web.Config{OpenLobby: true}, func(p bot.Platform, db *store.DB, clock *bottest.Clock) *bot.Service {
		return bot.New(bot.Config{Defaults: roundtable.Config{Rule: rtvote.Plurality, Rounds: 1}}, // no policy: as serve configures the web
			bot.Deps{Store: db, Clock: clock, Task: func(spec roundtable.TaskSpec, _ int) (roundtable.Task, error) {
				return roundtable.TextTask{Topic: spec.Topic}, nil
			}}, p)
	})
	guest := open.browser(t, "Bob")
	if _, page := open.send(t, guest, "GET", "/", nil); !strings.Contains(page, `action="/start"`) {
		t.Errorf("the open lobby shows no create form")
	}
	req, _ := http.NewRequest("POST", open.base+"/start", strings.NewReader(url.Values{"nonce": {"n2"}, "topic": {"Lunch?"}, "name": {"Bob"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := guest.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Request.URL.Path, "/r/") {
		t.Errorf("a guest's start in an open lobby: %d at %s; want the new room", resp.StatusCode, resp.Request.URL)
	}
}

func TestTheFaviconIsServed(t *testing.T) {
	e := newLiveEnv(t, web.Config{})
	resp, err := http.Get(e.base + "/favicon.ico")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/svg+xml" {
		t.Errorf("favicon: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

func TestTheOrganiserClosesAPhaseEarly(t *testing.T) {
	e := newLiveEnv(t, web.Config{})
	room, ann, bob := e.twoPeople(t)
	if code, a := e.act(t, bob, room, map[string]any{"kind": "command", "command": "close"}); code != http.StatusForbidden || !strings.Contains(a.Error, "organiser link") {
		t.Errorf("a guest closes the phase: %d %+v; want 403", code, a)
	}
	if s := e.state(t, room); s.Phase != roundtable.PhaseMessage {
		t.Fatalf("phase %s after a refused close", s.Phase)
	}
	if code, a := e.act(t, ann, room, map[string]any{"kind": "command", "command": "close"}); code != http.StatusOK || !strings.Contains(strings.Join(a.Replies, " "), "You closed the message phase") {
		t.Errorf("the organiser closes the phase: %d %+v", code, a)
	}
	if s := e.state(t, room); s.Phase != roundtable.PhaseProposal {
		t.Errorf("phase %s after the organiser closed the message phase; want proposal", s.Phase)
	}
}
