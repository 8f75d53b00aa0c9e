package bot_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// readCounter is a store that counts how often each table's log is read.
type readCounter struct {
	*store.DB
	mu    sync.Mutex
	reads map[string]int
	read  chan string
}

func (c *readCounter) count(table string) {
	c.mu.Lock()
	c.reads[table]++
	c.mu.Unlock()
	c.read <- table
}

func (c *readCounter) Load(ctx context.Context, table string) ([]roundtable.Event, error) {
	c.count(table)
	return c.DB.Load(ctx, table)
}

func (c *readCounter) LoadSnapshot(ctx context.Context, table string) (*roundtable.State, []roundtable.Event, error) {
	c.count(table)
	return c.DB.LoadSnapshot(ctx, table)
}

func (c *readCounter) LoadRecentSnapshot(ctx context.Context, table string, keep int) (*roundtable.State, []roundtable.Event, error) {
	c.count(table)
	return c.DB.LoadRecentSnapshot(ctx, table, keep)
}

// TestResumeReadsEachLogOnce resumes a table of the service's platform and
// one of another platform, and checks that each log was read once: the
// config comes from the same replay as the table.
func TestResumeReadsEachLogOnce(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "bot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clock := bottest.NewClock(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	for id, platform := range map[string]string{"mine": "fake", "theirs": "elsewhere"} {
		cfg := roundtable.Config{Rule: vote.Plurality, Rounds: 2, Task: roundtable.TaskSpec{Kind: "text", Topic: id},
			Durations:    roundtable.Durations{Message: time.Minute, Proposal: time.Minute, Vote: time.Minute},
			Participants: []roundtable.Participant{{ID: "u1", Name: "Ann", Kind: roundtable.Human}},
			Labels:       map[string]string{"platform": platform, "channel": "c-" + id}}
		tbl, err := roundtable.Create(t.Context(), db, clock, roundtable.TextTask{Topic: id}, id, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := tbl.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	counter := &readCounter{DB: db, reads: map[string]int{}, read: make(chan string, 16)}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- bottest.Service(bottest.NewFake(), counter, clock, nil).Run(ctx) }()
	seen := map[string]bool{}
	for len(seen) < 2 {
		seen[<-counter.read] = true
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"mine", "theirs"} {
		if n := counter.reads[id]; n != 1 {
			t.Errorf("the log of table %s was read %d times, want once", id, n)
		}
	}
}
