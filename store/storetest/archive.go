package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// archiveRounds is long enough for several snapshots, so that most rounds
// are archived by the end.
const archiveRounds = 40

// scripted is a deterministic agent whose every message and proposal
// depends on what its view holds: the history's rounds and messages, and
// the candidates' letters. A table whose archived rounds read back
// differently from the rounds it played writes a different log.
func scripted(i int) roundtable.Agent {
	return roundtable.AgentFunc(func(_ context.Context, v roundtable.View) (roundtable.Action, error) {
		switch v.Phase {
		case roundtable.PhaseMessage, roundtable.PhasePrivate:
			s := roundtable.Say{Text: fmt.Sprintf("%s, round %d: %s", v.Self.Name, v.Round, digest(v.History))}
			if v.To != "" {
				s.To = []string{v.To}
			}
			return s, nil
		case roundtable.PhaseProposal:
			// new proposals keep coming and old ones come back after many
			// rounds, so letters given in archived rounds are given again
			return roundtable.Propose{Proposal: roundtable.Proposal{Text: fmt.Sprintf("plan %d", v.Round*(i+1)%37)}}, nil
		case roundtable.PhaseVote:
			return roundtable.Cast{Ballot: vote.Ballot{Choice: v.Candidates[(v.Round+i)%len(v.Candidates)].ID}}, nil
		case roundtable.PhaseSurvey:
			vals := make([]float64, len(v.Scale.Items))
			for k := range vals {
				vals[k] = float64((v.Round+i+k)%3) - 1
			}
			return roundtable.Report{Values: vals}, nil
		}
		return nil, fmt.Errorf("no script for phase %s", v.Phase)
	})
}

// digest sums up a view's history: its rounds, messages, candidate
// letters and the first and last message.
func digest(h []roundtable.RoundRecord) string {
	var msgs []string
	var letters strings.Builder
	for _, r := range h {
		for _, m := range r.Messages {
			msgs = append(msgs, m.Text)
		}
		for _, c := range r.Candidates {
			letters.WriteString(c.ID)
		}
	}
	if len(msgs) == 0 {
		return "nothing said yet"
	}
	return fmt.Sprintf("%d rounds, %d messages, letters %s, first %q, last %q", len(h), len(msgs), letters.String(), msgs[0], msgs[len(msgs)-1])
}

// archiveConfigs are a deliberation decided by plurality and a chatroom
// (turns drawn away from the last speaker, surveys), both long.
func archiveConfigs() map[string]roundtable.Config {
	seats := make([]roundtable.Participant, 4)
	for i := range seats {
		seats[i] = roundtable.Participant{ID: fmt.Sprintf("p%d", i+1), Name: fmt.Sprintf("P%d", i+1), Kind: roundtable.Bot}
	}
	return map[string]roundtable.Config{
		"deliberation": {Task: roundtable.TaskSpec{Kind: "text", Topic: "lunch"}, Rule: vote.Plurality, Rounds: archiveRounds,
			Mode: roundtable.Sealed, EarlyStop: roundtable.StopNever, Seed: 3, Participants: seats},
		"chatroom": {Task: roundtable.TaskSpec{Kind: "text", Topic: "lunch"}, Rule: vote.Plurality, Rounds: archiveRounds, Seed: 3, Participants: seats,
			Protocol: chatroom.Preset(protocol.Settings{Question: "Lunch should be free."})},
	}
}

// runArchived plays cfg with scripted agents on s, reopening the table
// every reopen rounds (0: never) as a restart would, and returns its log.
func runArchived(t *testing.T, s roundtable.Store, id string, cfg roundtable.Config, reopen int) []roundtable.Event {
	t.Helper()
	ctx := t.Context()
	clock := newClock()
	task := roundtable.TextTask{Topic: "lunch"}
	tbl, err := roundtable.Create(ctx, s, clock, task, id, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	agents := map[string]roundtable.Agent{}
	for i, p := range cfg.Participants {
		agents[p.ID] = scripted(i)
	}
	r := roundtable.Runner{Agents: agents}
	for {
		var status roundtable.Status
		var round int
		tbl.Read(func(st *roundtable.State) { status, round = st.Status, st.Round })
		if status == roundtable.StatusEnded {
			break
		}
		if reopen > 0 && round%reopen == 0 {
			if tbl, err = roundtable.Open(ctx, s, clock, task, id); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := r.Step(ctx, tbl); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := s.(roundtable.ArchiveStore); ok {
		if n := tbl.Snapshot().Archived; n < archiveRounds/2 {
			t.Fatalf("the table ended with %d of %d rounds archived: %s", n, archiveRounds, tbl.Snapshot().EndReason)
		}
	}
	events, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// testArchivedPlays plays long tables on the store,
// where ended rounds leave memory, restarting some of them along the way,
// and checks that every event is the one the same table writes in memory,
// where nothing is archived: candidate letters, turns, agents' views and
// decisions do not depend on where the rounds are.
func testArchivedPlays(t *testing.T, b Backend) {
	for name, cfg := range archiveConfigs() {
		t.Run(name, func(t *testing.T) {
			want := runArchived(t, roundtabletest.NewMemStore(), "t1", cfg, 0)
			for _, reopen := range []int{0, 7} {
				got := runArchived(t, b.Open(t), "t1", cfg, reopen)
				if g, w := roundtabletest.MustJSON(t, got), roundtabletest.MustJSON(t, want); g != w {
					t.Fatalf("reopened every %d rounds: the archived table wrote a different log (%d events, want %d)", reopen, len(got), len(want))
				}
			}
		})
	}
}

// playedOn plays the sample table "t1" of 30 rounds for the given rounds
// on a new store.
func playedOn(t *testing.T, b Backend, rounds int) (Store, *roundtabletest.Clock, *roundtable.Table) {
	t.Helper()
	db := b.Open(t)
	clock := newClock()
	tbl, err := roundtabletest.StartTable(t.Context(), db, clock, "t1", 30)
	if err != nil {
		t.Fatal(err)
	}
	for range rounds {
		if err := roundtabletest.PlayRound(t.Context(), tbl, clock); err != nil {
			t.Fatal(err)
		}
	}
	return db, clock, tbl
}

// testArchivedKeeps checks what a long table on the
// store holds in memory, and that Full, Rounds and an opened table give
// back the rounds it archived.
func testArchivedKeeps(t *testing.T, b Backend) {
	ctx := t.Context()
	db, clock, tbl := playedOn(t, b, 20)
	events := mustLoad(t, db, "t1")
	replayed := roundtabletest.MustReplay(t, events)
	checkArchived := func(t *testing.T, tbl *roundtable.Table) {
		t.Helper()
		s := tbl.Snapshot()
		if s.Archived < 10 || s.Archived > s.Round-2 {
			t.Fatalf("round %d: %d rounds archived; want most, but not the previous round", s.Round, s.Archived)
		}
		for _, r := range s.Rounds[:s.Archived] {
			if len(r.Messages)+len(r.Proposals)+len(r.Candidates) > 0 || r.Tally != nil {
				t.Fatalf("archived round %d is still in memory: %+v", r.Round, r)
			}
		}
		for _, r := range s.Rounds[s.Archived:] {
			if r.Round < s.Round && r.Tally == nil {
				t.Fatalf("round %d, not archived, has no tally in memory", r.Round)
			}
		}
		full, err := tbl.Full(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := roundtabletest.MustJSON(t, full), roundtabletest.MustJSON(t, replayed); g != w {
			t.Fatalf("Full is not the replayed log:\n%s\nwant\n%s", g, w)
		}
		rounds, err := tbl.Rounds(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := roundtabletest.MustJSON(t, rounds), roundtabletest.MustJSON(t, replayed.Rounds); g != w {
			t.Fatal("Rounds is not the replayed log's rounds")
		}
	}
	t.Run("played", func(t *testing.T) { checkArchived(t, tbl) })
	t.Run("opened", func(t *testing.T) {
		opened, err := roundtable.Open(ctx, db, clock, roundtabletest.SampleTask(), "t1")
		if err != nil {
			t.Fatal(err)
		}
		checkArchived(t, opened)
	})
}

// testLoadRoundsMissing asks for rounds the store does not hold.
func testLoadRoundsMissing(t *testing.T, b Backend) {
	ctx := t.Context()
	db := b.Open(t)
	clock := newClock()
	if _, err := roundtabletest.PlayTable(ctx, db, clock, "t1", 12); err != nil {
		t.Fatal(err)
	}
	got, err := db.LoadRounds(ctx, "t1", 2, 4)
	if err != nil || len(got) != 3 || got[0].Round != 2 || got[2].Round != 4 {
		t.Fatalf("LoadRounds(2, 4) = %d rounds, %v", len(got), err)
	}
	if err := db.DeleteSnapshotRound("t1", 3); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		from, to int
		want     string
	}{
		{2, 4, "round 3 is not stored"},
		{0, 2, "no rounds 0-2"},
		{5, 500, "is not stored"},
	} {
		if _, err := db.LoadRounds(ctx, "t1", c.from, c.to); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LoadRounds(%d, %d) = %v; want %q", c.from, c.to, err, c.want)
		}
	}
	if _, err := db.LoadRounds(ctx, "nope", 1, 1); roundtable.ErrorCode(err) != roundtable.NotFound {
		t.Errorf("LoadRounds of an unknown table = %v; want NotFound", err)
	}
}

// testOldHead reads a snapshot written before
// State.Past was kept: it is read with all its rounds, and the table
// opened from it gives the same candidates as one replayed.
func testOldHead(t *testing.T, b Backend) {
	ctx := t.Context()
	log := Retable(PlayedLog(t, 12), "old")
	db := b.Open(t)
	k := 200
	snap := roundtabletest.MustReplay(t, log[:k])
	snap.Past = nil // as written before Past
	if err := db.AppendSnapshot(ctx, "old", log[:k], snap); err != nil {
		t.Fatal(err)
	}
	if err := db.Append(ctx, "old", log[k:]); err != nil {
		t.Fatal(err)
	}
	got, _, err := db.LoadRecentSnapshot(ctx, "old", 1)
	if err != nil || got == nil {
		t.Fatalf("LoadRecentSnapshot = %v, %v", got, err)
	}
	if got.Archived != 0 || got.Past != nil || len(got.Rounds[0].Messages) == 0 {
		t.Fatalf("an old snapshot was read with %d rounds archived (Past %v)", got.Archived, got.Past)
	}
	opened, err := roundtable.Open(ctx, db, newClock(), roundtabletest.SampleTask(), "old")
	if err != nil {
		t.Fatal(err)
	}
	full, err := opened.Full(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := roundtabletest.MustJSON(t, full), roundtabletest.MustJSON(t, roundtabletest.MustReplay(t, log)); g != w {
		t.Fatalf("opened from an old snapshot:\n%s\nwant\n%s", g, w)
	}
}

// testLostRound opens a table one of
// whose archived rounds is missing from the file: opening reads only the
// recent rounds, so it is noticed when the round is asked for, and the
// round comes from the log, which is the record.
func testLostRound(t *testing.T, b Backend) {
	ctx := t.Context()
	db, clock, _ := playedOn(t, b, 12)
	if err := db.DeleteSnapshotRound("t1", 3); err != nil {
		t.Fatal(err)
	}
	opened, err := roundtable.Open(ctx, db, clock, roundtabletest.SampleTask(), "t1")
	if err != nil {
		t.Fatal(err)
	}
	if n := opened.Snapshot().Archived; n < 3 {
		t.Fatalf("%d rounds archived: round 3 is not among them, the test checks nothing", n)
	}
	events := mustLoad(t, db, "t1")
	full, err := opened.Full(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := roundtabletest.MustJSON(t, full), roundtabletest.MustJSON(t, roundtabletest.MustReplay(t, events)); g != w {
		t.Fatalf("Full over a lost round:\n%s\nwant\n%s", g, w)
	}
	v, err := opened.View(ctx, "bot-1")
	if err != nil || len(v.History) != v.Round-1 || len(v.History[2].Messages) == 0 {
		t.Fatalf("View over a lost round: %d rounds of history, %v", len(v.History), err)
	}
}

// testHeadHoldsRounds opens a table
// from a snapshot head that holds its ended rounds itself (done 0, as
// EncodeSnapshot writes): the file stores none of them apart, so the table
// archives none until its next snapshot stores them, and plays on.
func testHeadHoldsRounds(t *testing.T, b Backend) {
	ctx := t.Context()
	db := b.Open(t)
	log := Retable(PlayedLog(t, 12), "h")
	k := 0
	for i, e := range log {
		if d, ok := e.Data.(roundtable.PhaseOpened); ok && d.Round == 6 && d.Phase == roundtable.PhaseMessage {
			k = i + 1
		}
	}
	if err := db.Append(ctx, "h", log[:k]); err != nil {
		t.Fatal(err)
	}
	if err := db.PutRawSnapshot("h", encodeSnapshot(t, roundtabletest.MustReplay(t, log[:k]), log[k-1])); err != nil {
		t.Fatal(err)
	}
	clock := newClock()
	tbl, err := roundtable.Open(ctx, db, clock, roundtabletest.SampleTask(), "h")
	if err != nil {
		t.Fatal(err)
	}
	if n := tbl.Snapshot().Archived; n != 0 {
		t.Fatalf("opened with %d rounds archived that the file does not store apart", n)
	}
	for range 6 {
		if err := roundtabletest.PlayRound(ctx, tbl, clock); err != nil {
			t.Fatal(err)
		}
	}
	if n := tbl.Snapshot().Archived; n == 0 {
		t.Error("no round archived after the next snapshots")
	}
	full, err := tbl.Full(ctx)
	if err != nil {
		t.Fatal(err)
	}
	events := mustLoad(t, db, "h")
	if g, w := roundtabletest.MustJSON(t, full), roundtabletest.MustJSON(t, roundtabletest.MustReplay(t, events)); g != w {
		t.Fatal("Full is not the replayed log")
	}
}
