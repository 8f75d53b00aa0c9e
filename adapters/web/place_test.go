package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/web"
)

func TestControlsOfAnotherTableAreRefused(t *testing.T) {
	e := newLiveEnv(t, web.Config{})
	ann := e.browser(t, "Ann")
	roomA, linkA := e.start(t, ann, nil)
	roomB, _ := e.start(t, ann, nil)
	tableB, _, err := e.db.Lookup(context.Background(), "web:"+roomB)
	if err != nil {
		t.Fatal(err)
	}
	mallory := e.browser(t, "Mallory")
	e.send(t, mallory, "GET", linkA, nil) // she holds A's link, not B's
	for _, act := range []map[string]any{
		{"kind": "action", "action": "rt:" + tableB + ":0:join"},
		{"kind": "action", "action": "rt:" + tableB + ":1:skip"},
		{"kind": "submit", "action": "rt:" + tableB + ":1:msg", "fields": map[string]string{"text": "hello B"}},
	} {
		code, a := e.act(t, mallory, roomA, act)
		if code != http.StatusForbidden || !strings.Contains(a.Error, "belongs to another table") {
			t.Errorf("%v in room A: %d %+v; want 403, another table", act, code, a)
		}
	}
	if code, _ := e.send(t, mallory, "GET", "/r/"+roomB, nil); code != http.StatusForbidden {
		t.Errorf("room B without its link: %d", code)
	}
	if s := e.state(t, roomB); len(s.Participants) != 1 {
		t.Errorf("table B: participants %+v; Mallory got in", s.Participants)
	}
	tableA, _, _ := e.db.Lookup(context.Background(), "web:"+roomA)
	if code, a := e.act(t, mallory, roomA, map[string]any{"kind": "action", "action": "rt:" + tableA + ":0:join"}); code != http.StatusOK {
		t.Errorf("room A's own join button: %d %+v", code, a)
	}
}

func TestNamesAreUniquePerTableAndPassForNoRole(t *testing.T) {
	e := newLiveEnv(t, web.Config{})
	ann := e.browser(t, "Ann Lee")
	room, link := e.start(t, ann, nil)
	for _, name := range []string{"Olivia (organiser)", "Facilitator", "fac1litator", "The Host", "roundtable", "ORGANIZER", "Ｆａｃｉｌｉｔａｔｏｒ"} {
		c := &http.Client{Jar: newJar()}
		code, body := e.send(t, c, "POST", "/name", urlValues("name", name))
		if code != http.StatusBadRequest || !strings.Contains(body, "looks like a role") {
			t.Errorf("name %q: %d, want 400 'looks like a role'", name, code)
		}
	}
	for _, name := range []string{"ann lee", "AnnLee", " Ann  Lee ", "Аnn Lее" /* Cyrillic А and е */, "Ánn Lee", "Ann L\u200bee"} {
		c := e.browser(t, name)
		e.send(t, c, "GET", link, nil)
		code, a := e.act(t, c, room, map[string]any{"kind": "command", "command": "join"})
		if code != http.StatusConflict || !strings.Contains(a.Error, `"Ann Lee" is already at this table`) {
			t.Errorf("join as %q: %d %+v; want 409, Ann Lee is at the table", name, code, a)
		}
	}
	bob := e.browser(t, "Bob")
	e.send(t, bob, "GET", link, nil)
	if code, a := e.act(t, bob, room, map[string]any{"kind": "command", "command": "join"}); code != http.StatusOK {
		t.Fatalf("join as Bob: %d %+v", code, a)
	}
	if code, _ := e.act(t, bob, room, map[string]any{"kind": "command", "command": "join"}); code != http.StatusOK {
		t.Errorf("Bob joins again under his own name: %d", code)
	}
	if s := e.state(t, room); len(s.Participants) != 2 {
		t.Errorf("participants %+v, want Ann Lee and Bob", s.Participants)
	}
}
