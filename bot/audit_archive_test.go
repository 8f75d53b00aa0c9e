package bot_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// TestAuditAfterRestartMeasuresArchivedRounds resumes an audited table of
// 24 rounds whose messages were never measured (the server stopped
// before its auditor ran). Most of its rounds are archived in the file, not
// in memory, yet every message of every round is measured.
func TestAuditAfterRestartMeasuresArchivedRounds(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "bot.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	const rounds = 24
	clock := bottest.NewClock(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	alice := roundtable.Participant{ID: "fake:" + bottest.Alice.ID, Name: "Alice", Kind: roundtable.Human, Platform: bottest.Alice.ID}
	cfg := roundtable.Config{Task: roundtable.TaskSpec{Kind: "text", Topic: "Lunch?"}, Rule: vote.Plurality, Rounds: rounds + 1,
		Mode: roundtable.Sealed, EarlyStop: roundtable.StopNever, Participants: []roundtable.Participant{alice},
		Durations: roundtable.Durations{Message: time.Hour, Proposal: time.Hour, Vote: time.Hour},
		Audit:     &roundtable.AuditSpec{Instruments: []string{"sentiment"}},
		Labels:    map[string]string{"platform": "fake", "channel": "th1", "parent": "general", "starter": alice.ID}}
	tbl := playStored(t, db, clock, cfg, alice.ID, rounds, "Alice speaks in round %d", time.Second)
	if n := tbl.Snapshot().Archived; n < rounds/2 {
		t.Fatalf("only %d of %d rounds are archived: the test checks nothing", n, rounds)
	}
	must(t, db.Bind(ctx, "fake:th1", "t1"))

	g := gated{gate: make(chan struct{}), started: make(chan struct{}, 1)}
	close(g.gate)
	auditEnvOn(t, db, g, 64)
	annotations(t, db, "t1", func(a []roundtable.Annotation) bool { return len(a) == rounds })
}
