package bot_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// unreadable is a store that cannot read a table's archived rounds, nor,
// once they were asked for, its whole log: the table opened, then the
// file's history became unreadable.
type unreadable struct {
	*store.DB
	asked atomic.Bool
}

func (u *unreadable) LoadRounds(context.Context, string, int, int) ([]roundtable.RoundRecord, error) {
	u.asked.Store(true)
	return nil, errors.New("disk hiccup")
}

func (u *unreadable) Load(ctx context.Context, table string) ([]roundtable.Event, error) {
	if u.asked.Load() {
		return nil, errors.New("disk hiccup")
	}
	return u.DB.Load(ctx, table)
}

// TestAgentWhoseViewFailsIsRecordedAsFailed resumes a long table whose
// agent needs its history, in a phase without a deadline, with the file's
// history unreadable: the agent's view fails, and that is recorded as the
// agent's failure with the reason, so the phase does not wait for it
// forever.
func TestAgentWhoseViewFailsIsRecordedAsFailed(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "bot.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const rounds = 30
	clock := bottest.NewClock(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	scribe := roundtable.Participant{ID: "agent:scribe", Name: "Scribe", Kind: roundtable.Bot, Agent: "scribe"}
	cfg := roundtable.Config{Task: roundtable.TaskSpec{Kind: "text", Topic: "Lunch?"}, Rule: vote.Plurality, Rounds: rounds + 1,
		Mode: roundtable.Sealed, EarlyStop: roundtable.StopNever, Participants: []roundtable.Participant{scribe},
		Labels: map[string]string{"platform": "fake", "channel": "th1", "parent": "general"}}
	playStored(t, db, clock, cfg, scribe.ID, rounds, "round %d", 0)
	must(t, db.Bind(ctx, "fake:th1", "t1"))

	st := &unreadable{DB: db}
	f := bottest.NewFake()
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- bottest.Service(f, st, clock, nil).Run(runCtx) }()
	defer func() {
		cancel()
		<-done
	}()
	deadline := time.Now().Add(15 * time.Second)
	for {
		events, err := db.Load(ctx, "t1")
		if err != nil {
			t.Fatal(err)
		}
		last := events[len(events)-1]
		if d, ok := last.Data.(roundtable.ActionFailed); ok && last.Actor == scribe.ID {
			if d.Kind != "error" || d.Round != rounds+1 {
				t.Fatalf("recorded %+v; want an error in round %d", d, rounds+1)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the agent whose view failed is not recorded as failed; the log ends with %s", last.Type())
		}
		time.Sleep(10 * time.Millisecond) // the store has no change signal
	}
}
