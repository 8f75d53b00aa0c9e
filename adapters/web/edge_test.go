package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestLoneSurrogatesAreRefusedNotReplaced: a JSON \ud800 (half a
// surrogate pair) in an act would become U+FFFD, text its author did not
// write; the act is refused with where it is, and nothing reaches the bot.
func TestLoneSurrogatesAreRefusedNotReplaced(t *testing.T) {
	s := newServer(t)
	c := s.browser(t, "Ann")
	for _, body := range []string{`{"kind":"message","text":"caf\ud800"}`, `{"kind":"command","command":"propose","options":{"text":"\udc00"}}`} {
		if got := s.act(t, c, body, nil, http.StatusBadRequest); !strings.Contains(got, "half of a UTF-16 surrogate pair") || !strings.Contains(got, "offset") {
			t.Errorf("%s: answer %s; want the lone surrogate named", body, got)
		}
	}
	if n := len(s.events()); n != 0 {
		t.Errorf("refused acts reached the bot: %d events", n)
	}
}

// TestInvisibleCharactersGoAtTheEdge: a message and a command's option
// pasted with characters clients do not show reach the bot without them;
// a message of nothing else is empty.
func TestInvisibleCharactersGoAtTheEdge(t *testing.T) {
	s := newServer(t)
	c := s.browser(t, "Ann")
	s.act(t, c, `{"kind":"message","text":"Build the park\u2060\u200d\u200b\u200c\ufeff"}`, nil, http.StatusOK)
	s.act(t, c, `{"kind":"command","command":"propose","options":{"text":"\u202eBuild\u200b it"}}`, nil, http.StatusOK)
	if got := s.act(t, c, `{"kind":"message","text":"\u200b\u2060"}`, nil, http.StatusBadRequest); !strings.Contains(got, "the message is empty") {
		t.Errorf("an invisible message: %s", got)
	}
	evs := s.events()
	if len(evs) != 2 || evs[0].Text != "Build the park" || evs[1].Options["text"] != "Build it" {
		t.Errorf("events %+v, want the texts without invisible characters", evs)
	}
}
