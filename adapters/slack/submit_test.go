package slack_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/slack"
	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/store"
)

// table drives the real bot service over Socket Mode through the fake
// Slack's harness.
type table struct {
	t      *testing.T
	h      *slackfake.Harness
	thread string
}

// newTable runs the bot service against a fresh fake Slack.
func newTable(t *testing.T) *table {
	t.Helper()
	fake := newFake(t)
	logs := newLogSink(t)
	h := slackfake.NewHarness(fake, func() bot.Platform { return newPlatform(fake, logs.logger()) })
	h.Settle = func(ctx context.Context) error { return settle(ctx, fake, h.Platform().(*slack.Platform)) }
	db, err := store.Open(filepath.Join(t.TempDir(), "bot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clock := bottest.NewClock(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	svc := bottest.Service(h.Platform(), db, clock, nil)
	bottest.RunService(t, svc, db)
	waitUntil(t, fake, "the Socket Mode connection", func() bool { return fake.Connected() > 0 })
	return &table{t: t, h: h}
}

// must fails the test on an act's error.
func (tb *table) must(what string, err error) {
	tb.t.Helper()
	if err != nil {
		tb.t.Fatalf("%s: %v", what, err)
	}
}

// post waits for a post in the table's thread starting with prefix.
func (tb *table) post(prefix string) bottest.Post {
	tb.t.Helper()
	var found bottest.Post
	waitUntil(tb.t, tb.h.Fake, "a post starting "+prefix, func() bool {
		for _, p := range tb.h.Posts(tb.thread) {
			if strings.HasPrefix(p.Text, prefix) {
				found = p
				return true
			}
		}
		return false
	})
	return found
}

// click presses the control labelled label on the post starting prefix.
func (tb *table) click(u bottest.User, prefix, label string) {
	tb.t.Helper()
	p := tb.post(prefix)
	for _, c := range p.Controls {
		if c.Label == label {
			tb.must("click "+label, tb.h.Click(context.Background(), u, tb.thread, p.ID, c.ID))
			return
		}
	}
	tb.t.Fatalf("post %q has no control %q: %+v", prefix, label, p.Controls)
}

// twoProposals starts a one-round table under rule, seats Bob, and has
// Alice propose North (A) and Bob South (B), up to the vote.
func (tb *table) twoProposals(rule string) {
	tb.t.Helper()
	ctx := context.Background()
	opts := map[string]string{"topic": "Which way?", "rule": rule, "rounds": "1", "agents": "none"}
	tb.must("start", tb.h.Command(ctx, bottest.Alice, slackfake.GeneralID, "start", opts))
	waitUntil(tb.t, tb.h.Fake, "the table's thread", func() bool { return len(tb.h.Threads(slackfake.GeneralID)) > 0 })
	tb.thread = tb.h.Threads(slackfake.GeneralID)[0]
	tb.click(bottest.Bob, "**Which way?", "Join")
	tb.must("begin", tb.h.Command(ctx, bottest.Alice, tb.thread, "begin", nil))
	tb.must("say", tb.h.Say(ctx, bottest.Alice, tb.thread, "north is sunny"))
	tb.must("say", tb.h.Say(ctx, bottest.Bob, tb.thread, "south is warm"))
	tb.post("**Round 1 of 1: proposal")
	tb.must("propose", tb.h.Command(ctx, bottest.Alice, tb.thread, "propose", map[string]string{"text": "North"}))
	tb.must("propose", tb.h.Command(ctx, bottest.Bob, tb.thread, "propose", map[string]string{"text": "South"}))
	tb.post("**Round 1 of 1: vote")
}

// TestRefusedBallotStaysOpen submits a cumulative ballot over its budget:
// the ack carries the bot's error against the first field, the modal stays
// open, and the same modal then takes a valid ballot and closes.
func TestRefusedBallotStaysOpen(t *testing.T) {
	tb := newTable(t)
	fake, alice := tb.h.Fake, slackfake.SlackUser(bottest.Alice).ID
	tb.twoProposals("cumulative")
	tb.click(bottest.Alice, "**Round 1 of 1: vote", "Fill in your ballot")
	views := fake.Views(alice)
	if len(views) != 1 || len(views[0].Blocks) == 0 {
		t.Fatalf("views %+v, want the ballot", views)
	}
	ballot, first := views[0], views[0].Blocks[0].BlockID
	before := len(fake.Ephemerals(alice)) // the table's and the proposal's confirmations

	tb.must("submit over budget", tb.h.Submit(context.Background(), bottest.Alice, map[string]string{"A": "3"}))
	refusals := fake.Refusals(alice)
	if len(refusals) != 1 || refusals[0].ViewID != ballot.ID || len(refusals[0].Errors) != 1 ||
		!strings.Contains(refusals[0].Errors[first], "exceeds") {
		t.Fatalf("refusals %+v, want the budget error against %q", refusals, first)
	}
	if v := fake.Views(alice)[0]; v.Closed || v.Submitted || v.Errors[first] == "" {
		t.Errorf("the refused ballot's view: closed %v submitted %v errors %v", v.Closed, v.Submitted, v.Errors)
	}
	if eph := fake.Ephemerals(alice)[before:]; len(eph) != 0 {
		t.Errorf("a refusal shown in the modal was also posted: %+v", eph)
	}
	if !shown(tb.h.Private(bottest.Alice), "exceeds") {
		t.Errorf("Alice is not shown the reason: %+v", tb.h.Private(bottest.Alice))
	}

	tb.must("resubmit", tb.h.Submit(context.Background(), bottest.Alice, map[string]string{"A": "2"}))
	views = fake.Views(alice)
	if len(views) != 1 || !views[0].Closed || views[0].Errors != nil {
		t.Errorf("views %+v, want the one ballot, closed", views)
	}
	if len(fake.Refusals(alice)) != 1 {
		t.Errorf("refusals %+v, want only the first", fake.Refusals(alice))
	}
	eph := fake.Ephemerals(alice)[before:]
	if len(eph) != 1 || !strings.Contains(eph[0].Text, "is recorded: A=2") {
		t.Errorf("ephemerals %+v, want the confirmation", eph)
	}
}

// shown reports whether a private item's text contains s.
func shown(ps []bottest.Private, s string) bool {
	for _, p := range ps {
		if strings.Contains(p.Text, s) {
			return true
		}
	}
	return false
}

// pointsForm is a form like the bot's cumulative ballot.
var pointsForm = bot.Form{ID: "rt:t1:1:ballot", Title: "Round 1 ballot", Fields: []bot.Field{
	{ID: "A", Label: "Points for A", Optional: true}, {ID: "B", Label: "Points for B", Optional: true}}}

// TestLateAnswerFallsBack answers a submission after the ack deadline:
// the modal was closed by a plain ack, so the error is posted instead.
func TestLateAnswerFallsBack(t *testing.T) {
	fake := newFake(t)
	cfg := config(fake)
	cfg.AckDeadline = time.Millisecond
	p := slack.New(cfg, newLogSink(t).logger())
	submitted, release := make(chan *bot.Event, 1), make(chan struct{})
	run(t, p, func(ctx context.Context, ev *bot.Event) {
		switch ev.Kind {
		case bot.KindCommand:
			if err := p.Reply(ctx, ev, bot.Reply{Form: &pointsForm}); err != nil {
				t.Errorf("open the form: %v", err)
			}
		case bot.KindSubmit:
			submitted <- ev
			<-release // slower than the deadline: the test answers for it
		}
	})
	t.Cleanup(func() { close(release) }) // before run's cleanup waits for the handler
	waitUntil(t, fake, "the Socket Mode connection", func() bool { return fake.Connected() > 0 })
	if _, err := fake.Command(alice, slackfake.GeneralID, "vote"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, fake, "the form", func() bool { return len(fake.Views(alice.ID)) == 1 })
	if err := fake.Submit(alice, map[string]string{"A": "5"}); err != nil {
		t.Fatal(err)
	}
	var ev *bot.Event
	select {
	case ev = <-submitted:
	case <-time.After(10 * time.Second):
		t.Fatal("timed out waiting for the submission")
	}
	waitUntil(t, fake, "the plain ack at the deadline", func() bool { return fake.Views(alice.ID)[0].Closed })
	const msg = "ballot rejected: points total 5 exceeds the budget of 2"
	if err := p.Reply(context.Background(), ev, bot.Reply{Text: msg, Ephemeral: true, Fields: map[string]string{"A": msg}}); err != nil {
		t.Fatal(err)
	}
	if r := fake.Refusals(alice.ID); len(r) != 0 {
		t.Errorf("refusals %+v after the deadline", r)
	}
	eph := fake.Ephemerals(alice.ID)
	if len(eph) != 1 || !strings.Contains(eph[0].Text, "exceeds the budget") || eph[0].Channel != slackfake.GeneralID {
		t.Errorf("ephemerals %+v, want the error in #general", eph)
	}
}
