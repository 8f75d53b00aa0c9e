package web

import (
	"net/http"
	"strings"
	"testing"
)

func TestMalformedActsAreRefusedWithTheReason(t *testing.T) {
	s := newServer(t)
	c := s.browser(t, "Ann")
	cases := map[string]struct {
		body, want string
	}{
		"bytes that are not UTF-8": {"{\"kind\":\"message\",\"text\":\"caf\xe9 \xff\"}", "not valid UTF-8 (first bad byte at offset 29)"},
		"not JSON":                 {"vote B", "could not be read"},
		"unknown kind":             {`{"kind":"shout","text":"x"}`, "unknown kind of act"},
		"unknown command":          {`{"kind":"command","command":"rig"}`, "unknown command"},
		"empty message":            {`{"kind":"message","text":"   "}`, "the message is empty"},
		"too many values":          {`{"kind":"action","action":"vote","values":[` + strings.Repeat(`"A",`, 60) + `"A"]}`, "too many values"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := s.act(t, c, tc.body, nil, http.StatusBadRequest); !strings.Contains(got, tc.want) {
				t.Errorf("answer %s; want it to contain %q", got, tc.want)
			}
		})
	}
	if n := len(s.events()); n != 0 {
		t.Errorf("refused acts reached the bot: %d events", n)
	}
	s.act(t, c, `{"kind":"message","text":"café ✓"}`, nil, http.StatusOK)
	if evs := s.events(); len(evs) != 1 || evs[0].Text != "café ✓" {
		t.Errorf("a valid UTF-8 message after the refusals: %+v", evs)
	}
}

func TestBotTextsSpeakOfRoomsNotThreads(t *testing.T) {
	for in, want := range map[string]string{
		"Table t1 started in its own thread.":                     "Table t1 started in its own room.",
		"write it in this thread or press **Write message**.":     "write it in this room or press **Write message**.",
		"Act in each phase with the buttons in the thread, or...": "Act in each phase with the buttons in the room, or...",
	} {
		if got := roomWords.Replace(in); got != want {
			t.Errorf("%q became %q; want %q", in, got, want)
		}
	}
}
