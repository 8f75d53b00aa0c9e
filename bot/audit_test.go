package bot_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// gated is an instrument that measures nothing until its gate opens, as a
// slow model would; then it fails when down is set.
type gated struct {
	gate    chan struct{}
	started chan struct{}
	down    bool
}

func (gated) Name() string  { return "sentiment" }
func (gated) Model() string { return "gated" }
func (g gated) Measure(ctx context.Context, it analysis.Item) (analysis.Measurement, error) {
	select {
	case g.started <- struct{}{}:
	default:
	}
	select {
	case <-g.gate:
	case <-ctx.Done():
		return analysis.Measurement{}, ctx.Err()
	}
	if g.down {
		return analysis.Measurement{}, errors.New("the model is down (503)")
	}
	return analysis.Measurement{Result: map[string]float64{"score": float64(len(it.Text) % 3)}}, nil
}

// auditEnv runs a service with one Scribe agent on a fake platform, its
// audit measured by in with one worker and a queue of queue.
func auditEnv(t *testing.T, in analysis.Instrument, queue int) (*bottest.Fake, *store.DB) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "bot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return auditEnvOn(t, db, in, queue), db
}

// auditEnvOn is auditEnv on db, which it closes at the end of the test.
func auditEnvOn(t *testing.T, db *store.DB, in analysis.Instrument, queue int) *bottest.Fake {
	t.Helper()
	f := bottest.NewFake()
	cfg := bot.Config{
		Defaults:      roundtable.Config{Rule: vote.Plurality, Rounds: 2, Mode: roundtable.Sealed},
		Agents:        map[string]roundtable.Participant{"Scribe": {ID: "agent:scribe", Name: "Scribe", Kind: roundtable.Bot, Agent: "scribe"}},
		DefaultAgents: []string{"Scribe"},
	}
	deps := bot.Deps{Store: db, Clock: bottest.NewClock(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)),
		Task: func(spec roundtable.TaskSpec, _ int) (roundtable.Task, error) {
			return roundtable.TextTask{Topic: spec.Topic}, nil
		},
		Agent: func(roundtable.Participant, roundtable.Task) (roundtable.Agent, error) { return bottest.Scribe{}, nil },
		Audit: bot.Auditing{Store: db, Workers: 1, Queue: queue, Instruments: func(roundtable.AuditSpec) ([]analysis.Instrument, error) {
			return []analysis.Instrument{in}, nil
		}},
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- bot.New(cfg, deps, f).Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		_ = db.Close()
	})
	return f
}

func waitPost(t *testing.T, f *bottest.Fake, channel, prefix string) bottest.Post {
	t.Helper()
	deadline := time.NewTimer(15 * time.Second)
	defer deadline.Stop()
	for {
		for _, p := range f.Posts(channel) {
			if strings.HasPrefix(p.Text, prefix) {
				return p
			}
		}
		select {
		case <-f.Updates():
		case <-deadline.C:
			t.Fatalf("timed out waiting for post %q", prefix)
		}
	}
}

// playTable plays a 2-round table as Alice (Scribe is the other seat).
func playTable(t *testing.T, f *bottest.Fake, opts map[string]string) string {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(15 * time.Second)
	for err := f.Command(ctx, bottest.Alice, "general", "start", opts); err != nil; err = f.Command(ctx, bottest.Alice, "general", "start", opts) {
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond) // the service is connecting; the fake has no signal for it
	}
	th := f.Threads("general")
	if len(th) == 0 {
		t.Fatalf("no thread; Alice saw %+v", f.Private(bottest.Alice))
	}
	thread := th[len(th)-1]
	must(t, f.Command(ctx, bottest.Alice, thread, "begin", nil))
	for r := 1; r <= 2; r++ {
		head := fmt.Sprintf("**Round %d of 2: ", r)
		waitPost(t, f, thread, head+"message")
		must(t, f.Say(ctx, bottest.Alice, thread, fmt.Sprintf("Alice speaks in round %d", r)))
		waitPost(t, f, thread, head+"proposal")
		must(t, f.Command(ctx, bottest.Alice, thread, "propose", map[string]string{"text": "Alice's plan"}))
		waitPost(t, f, thread, head+"vote")
		must(t, f.Command(ctx, bottest.Alice, thread, "vote", map[string]string{"ballot": "A"}))
	}
	waitPost(t, f, thread, "**The table has ended")
	return thread
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A table whose audit model hangs plays to its end: the auditor only
// queues work. Messages that find the queue full are stored as missing,
// with the reason, at once; the rest are measured once the model answers.
func TestAuditNeverDelaysAPhase(t *testing.T) {
	g := gated{gate: make(chan struct{}), started: make(chan struct{}, 1)}
	f, db := auditEnv(t, g, 1)
	playTable(t, f, map[string]string{"topic": "Lunch?", "audit": "sentiment"})
	// 4 messages: the worker holds one, the queue one; the others were
	// refused (stored as missing) before the table ended.
	id := onlyTable(t, db)
	full, err := db.Annotations(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range full {
		if !strings.Contains(a.Missing, "queue was full") {
			t.Errorf("annotation %d before the model answered: %+v", a.Seq, a)
		}
	}
	if len(full) < 2 || len(full) > 3 {
		t.Fatalf("%d messages refused by a full queue of 1 with 1 worker, want 2 or 3", len(full))
	}
	close(g.gate)
	annotations(t, db, id, func(a []roundtable.Annotation) bool {
		measured := 0
		for _, x := range a {
			if x.Missing == "" {
				measured++
			}
		}
		return len(a) == 4 && measured == 4-len(full)
	})
}

// An audit whose model is down leaves the table running to its end; every
// annotation is stored missing, with the model's reason.
func TestAuditWithTheModelDownMarksAnnotationsMissing(t *testing.T) {
	g := gated{gate: make(chan struct{}), started: make(chan struct{}, 1), down: true}
	close(g.gate)
	f, db := auditEnv(t, g, 64)
	playTable(t, f, map[string]string{"topic": "Lunch?", "audit": "sentiment"})
	anns := annotations(t, db, onlyTable(t, db), func(a []roundtable.Annotation) bool { return len(a) == 4 })
	for _, a := range anns {
		if !strings.Contains(a.Missing, "the model is down (503)") {
			t.Errorf("annotation %d: missing %q, want the model's reason", a.Seq, a.Missing)
		}
	}
}

func onlyTable(t *testing.T, db *store.DB) string {
	t.Helper()
	list, err := db.Tables(context.Background())
	if err != nil || len(list) != 1 {
		t.Fatalf("tables %v, %v", list, err)
	}
	return list[0].ID
}

// annotations waits until the stored annotations of table satisfy ok.
func annotations(t *testing.T, db *store.DB, table string, ok func([]roundtable.Annotation) bool) []roundtable.Annotation {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		anns, err := db.Annotations(context.Background(), table)
		if err != nil {
			t.Fatal(err)
		}
		if ok(anns) {
			return anns
		}
		if time.Now().After(deadline) {
			t.Fatalf("annotations of %s: %+v", table, anns)
		}
		time.Sleep(10 * time.Millisecond) // the store has no change signal
	}
}
