package slack_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
)

// TestInvisibleCharactersGoAtTheEdge: what a person sends, typed in a
// thread or as a command's option, reaches the service without the
// characters clients do not show, however they were pasted.
func TestInvisibleCharactersGoAtTheEdge(t *testing.T) {
	fake := newFake(t)
	p, rec := running(t, fake, config(fake))
	thread, err := p.StartThread(context.Background(), slackfake.GeneralID, "roundtable: Parks")
	if err != nil {
		t.Fatal(err)
	}
	pasted := "Build the park\u2060\u200d\u200b\u200c\u2060\u200d\u200b\u200c\ufeff\u202e"
	if err := fake.Say(alice, slackfake.GeneralID, strings.TrimPrefix(thread, slackfake.GeneralID+"/"), pasted); err != nil {
		t.Fatal(err)
	}
	said := rec.next(t, "Alice's message", func(ev *bot.Event) bool { return ev.Kind == bot.KindMessage && !ev.User.Bot })
	if _, err := fake.Command(alice, slackfake.GeneralID, `propose text:"`+pasted+`"`); err != nil {
		t.Fatal(err)
	}
	cmd := rec.next(t, "the command", func(ev *bot.Event) bool { return ev.Kind == bot.KindCommand })
	if said.Text != "Build the park" || cmd.Options["text"] != "Build the park" {
		t.Errorf("message %+q and option %+q, want %q", said.Text, cmd.Options["text"], "Build the park")
	}
}

// TestLoneSurrogatesAreRefusedNotReplaced: a message whose JSON holds
// \ud800 (half a surrogate pair, which encoding/json would turn into
// U+FFFD) does not reach the service; its author is told why. The next
// message, readable, does.
func TestLoneSurrogatesAreRefusedNotReplaced(t *testing.T) {
	fake := newFake(t)
	srv, rec := eventsEndpointOf(t, fake)
	message := func(id, text string) string {
		return `{"type":"event_callback","event_id":"` + id + `","team_id":"T0FAKETEAM","event":{"type":"message","user":"U1001",
		"text":"` + text + `","ts":"1700000000.00050` + id[2:] + `","channel":"C0GENERAL","channel_type":"channel"}}`
	}
	signed(t, srv, "application/json", message("Ev1", `caf\ud800`), signingSecret, time.Now())
	signed(t, srv, "application/json", message("Ev2", `café`), signingSecret, time.Now())
	if ev := rec.next(t, "a message", func(*bot.Event) bool { return true }); ev.Text != "café" {
		t.Errorf("the service got %+q, want only the readable message", ev.Text)
	}
	eph := fake.Ephemerals(alice.ID)
	if len(eph) != 1 || !strings.Contains(eph[0].Text, `\ud800`) || !strings.Contains(eph[0].Text, "half of a UTF-16 surrogate pair") {
		t.Errorf("Alice was told %+v, want why her message was refused", eph)
	}
}
