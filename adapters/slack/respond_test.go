package slack_test

import (
	"context"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
)

// TestResponseURLBodyIsTheMessageOnly: where the app may not post, a
// private answer goes through the command's response_url, with a body of
// the message's fields only (slack-go's PostMessage adds an empty
// "metadata" object there, which the fake refuses).
func TestResponseURLBodyIsTheMessageOnly(t *testing.T) {
	fake := newFake(t)
	fake.AddOutsideChannel("C0RANDOM", "random", false)
	p, rec := running(t, fake, config(fake))
	if _, err := fake.Command(alice, "C0RANDOM", "help"); err != nil {
		t.Fatal(err)
	}
	ev := rec.next(t, "the command", func(ev *bot.Event) bool { return ev.Kind == bot.KindCommand })
	if err := p.Reply(context.Background(), ev, bot.Reply{Text: "Invite me first.", Ephemeral: true}); err != nil {
		t.Fatalf("reply through the response_url: %v", err)
	}
	eph := fake.Ephemerals(alice.ID)
	if len(eph) != 1 || eph[0].Channel != "C0RANDOM" || slackfake.BotMarkdown(eph[0].Text) != "Invite me first." {
		t.Errorf("Alice was shown %+v, want the answer in #random", eph)
	}
}
