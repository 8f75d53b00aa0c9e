package bot_test

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// placeEnv is a service over two fake platforms, "fake" and "other".
type placeEnv struct {
	t     *testing.T
	db    *store.DB
	fake  *bottest.Fake
	other *bottest.Fake
}

func newPlaceEnv(t *testing.T) *placeEnv {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "bot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := &placeEnv{t: t, db: db, fake: bottest.NewFake(), other: bottest.NewFakeNamed("other")}
	cfg := bot.Config{
		Defaults: roundtable.Config{Rule: vote.Plurality, Rounds: 1, Mode: roundtable.Sealed,
			Durations: roundtable.Durations{Message: time.Minute, Proposal: time.Minute, Vote: time.Minute}},
		Policy: bot.Policy{Manager: true},
	}
	deps := bot.Deps{Store: db, Clock: bottest.NewClock(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)),
		Task: func(spec roundtable.TaskSpec, _ int) (roundtable.Task, error) {
			return roundtable.TextTask{Topic: spec.Topic}, nil
		}}
	svc := bot.New(cfg, deps, e.fake, e.other)
	bottest.RunService(t, svc, db)
	<-e.fake.Updates() // each fake says so once its handler is set
	<-e.other.Updates()
	return e
}

var startedRe = regexp.MustCompile(`Table (t[0-9a-f]+) is set up`)

// start starts a table on f as Alice and returns its ID and thread.
func (e *placeEnv) start(f *bottest.Fake, topic string) (id, thread string) {
	e.t.Helper()
	if err := f.Command(context.Background(), bottest.Alice, f.Channel(), "start", map[string]string{"topic": topic}); err != nil {
		e.t.Fatal(err)
	}
	priv := f.Private(bottest.Alice)
	m := startedRe.FindStringSubmatch(priv[len(priv)-1].Text)
	if m == nil {
		e.t.Fatalf("no table started: %+v", priv)
	}
	threads := f.Threads(f.Channel())
	if err := f.Command(context.Background(), bottest.Alice, threads[len(threads)-1], "begin", nil); err != nil {
		e.t.Fatal(err)
	}
	return m[1], threads[len(threads)-1]
}

// lastPrivate is what u was shown last on f.
func lastPrivate(t *testing.T, f *bottest.Fake, u bottest.User) string {
	t.Helper()
	priv := f.Private(u)
	if len(priv) == 0 {
		t.Fatalf("%s was shown nothing", u.Name)
	}
	return priv[len(priv)-1].Text
}

// joined counts the participant_joined events of a table.
func (e *placeEnv) joined(table string) int {
	evs, err := e.db.Load(context.Background(), table)
	if err != nil {
		e.t.Fatal(err)
	}
	n := 0
	for _, ev := range evs {
		if ev.Type() == "participant_joined" {
			n++
		}
	}
	return n
}

// TestActionsAreBoundToTheirPlace forges, as a modified client could,
// controls, forms and commands naming another table, another room and
// another platform: each is refused with its reason and records nothing,
// while the same acts in the right place are taken.
func TestActionsAreBoundToTheirPlace(t *testing.T) {
	e := newPlaceEnv(t)
	ctx := context.Background()
	a, threadA := e.start(e.fake, "Table A")
	b, threadB := e.start(e.fake, "Table B")
	joinedA, joinedB := e.joined(a), e.joined(b) // Alice sits at both

	refusals := []struct {
		name string
		f    *bottest.Fake
		at   string
		ev   bot.Event
		want string
	}{
		{"control of another table", e.fake, threadA, bot.Event{Kind: bot.KindAction, Action: "rt:" + b + ":0:join"},
			"that control is for table " + b + "; this thread holds table " + a},
		{"form of another table", e.fake, threadA, bot.Event{Kind: bot.KindSubmit, Action: "rt:" + b + ":1:msg", Fields: map[string]string{"text": "hi"}},
			"that control is for table " + b},
		{"control outside any table", e.fake, e.fake.Channel(), bot.Event{Kind: bot.KindAction, Action: "rt:" + b + ":0:join"},
			"not in this channel"},
		{"command naming a table of another thread", e.fake, threadA, bot.Event{Kind: bot.KindCommand, Command: "join", Options: map[string]string{"table": b}},
			"table " + b + " is not in this channel"},
		{"command naming a table of another channel", e.fake, "random", bot.Event{Kind: bot.KindCommand, Command: "stop", Options: map[string]string{"table": a}},
			"table " + a + " is not in this channel"},
		{"command from another platform", e.other, e.other.Channel(), bot.Event{Kind: bot.KindCommand, Command: "join", Options: map[string]string{"table": a}},
			"runs on another platform"},
		{"control from another platform", e.other, threadA, bot.Event{Kind: bot.KindAction, Action: "rt:" + a + ":0:join"},
			"not in this channel"},
	}
	for _, r := range refusals {
		if err := r.f.Forge(ctx, bottest.Bob, r.at, r.ev); err != nil {
			t.Fatal(err)
		}
		if got := lastPrivate(t, r.f, bottest.Bob); !strings.Contains(got, r.want) {
			t.Errorf("%s: Bob was told %q, want %q", r.name, got, r.want)
		}
	}
	if e.joined(a) != joinedA || e.joined(b) != joinedB {
		t.Fatalf("a refused act seated Bob: %d and %d joins, want %d and %d", e.joined(a), e.joined(b), joinedA, joinedB)
	}

	// The same acts where they belong are taken.
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(e.fake.Forge(ctx, bottest.Bob, threadB, bot.Event{Kind: bot.KindAction, Action: "rt:" + b + ":0:join"}))
	must(e.fake.Forge(ctx, bottest.Bob, e.fake.Channel(), bot.Event{Kind: bot.KindCommand, Command: "join", Options: map[string]string{"table": a}}))
	if e.joined(a) != joinedA+1 || e.joined(b) != joinedB+1 {
		t.Errorf("Bob's joins in place: %d and %d, want %d and %d", e.joined(a), e.joined(b), joinedA+1, joinedB+1)
	}
}

// TestFormSubmitsWhereItOpened checks that a form opened in a table's
// thread is taken from there: the reference platform delivers it in the
// channel it was opened in, as Discord, Slack and the web do.
func TestFormSubmitsWhereItOpened(t *testing.T) {
	e := newPlaceEnv(t)
	ctx := context.Background()
	a, threadA := e.start(e.fake, "Forms")
	if err := e.fake.Forge(ctx, bottest.Alice, threadA, bot.Event{Kind: bot.KindAction, Action: "rt:" + a + ":1:write"}); err != nil {
		t.Fatal(err)
	}
	if err := e.fake.Submit(ctx, bottest.Alice, map[string]string{"text": "hello"}); err != nil {
		t.Fatal(err)
	}
	if got := lastPrivate(t, e.fake, bottest.Alice); !strings.Contains(got, "Your message is recorded") {
		t.Errorf("Alice was told %q after submitting her message", got)
	}
}
