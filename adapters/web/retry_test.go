package web_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/web"
)

// TestRetriedActGetsTheFirstAnswer sends acts twice with the same ID, as
// the room page does when a request gets no answer: a refused act is
// refused again with the same reason (the page keeps what was typed), and
// an act that was handled gets the same answer, replies and all, and is
// in the log once.
func TestRetriedActGetsTheFirstAnswer(t *testing.T) {
	e := newLiveEnv(t, web.Config{})
	room, ann, bob := e.twoPeople(t)
	send := func(c *http.Client, id string, act map[string]any) (int, actAnswer) {
		t.Helper()
		act["id"] = id
		return e.act(t, c, room, act)
	}
	for i := range 2 {
		code, a := send(bob, "bobmsg1", map[string]any{"kind": "message", "text": "hi"})
		if code != http.StatusConflict || a.OK || !strings.Contains(a.Error, "you have not joined") {
			t.Errorf("try %d of a refused message: %d %+v; want 409 with the reason", i+1, code, a)
		}
	}
	for _, act := range []map[string]any{
		{"kind": "message", "text": "Soup, anyone?"},
		{"kind": "command", "command": "status"},
	} {
		code1, a1 := send(ann, "ann"+act["kind"].(string), act)
		code2, a2 := send(ann, "ann"+act["kind"].(string), act)
		if code1 != http.StatusOK || !a1.OK || code2 != code1 || !slices.Equal(a2.Replies, a1.Replies) || a2.OK != a1.OK {
			t.Errorf("%v: first answer %d %+v, retry %d %+v; want 200 twice, the same", act, code1, a1, code2, a2)
		}
		if act["kind"] == "command" && len(a2.Replies) == 0 {
			t.Errorf("the retried status command has no reply: %+v", a2)
		}
	}
	if s := e.state(t, room); len(s.Rounds) == 0 || len(s.Rounds[0].Messages) != 1 {
		t.Errorf("round 1 has %+v; want Ann's message once", s.Rounds)
	}
}
