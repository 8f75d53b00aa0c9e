package roundtabletest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// testConcurrentTables runs 64 headless tables at once, each driven by a
// Runner whose agents act concurrently, and checks every log.
func testConcurrentTables(t *testing.T, s roundtable.Store) {
	const tables, rounds = 64, 2
	ctx := t.Context()
	clock := newClock()
	cfg := SampleConfig(rounds)
	cfg.Participants = []roundtable.Participant{
		{ID: "a1", Name: "One", Kind: roundtable.Bot}, {ID: "a2", Name: "Two", Kind: roundtable.Bot}, {ID: "a3", Name: "Three", Kind: roundtable.Bot},
	}
	runner := &roundtable.Runner{Agents: map[string]roundtable.Agent{
		"a1": roundtable.AgentFunc(simpleAgent), "a2": roundtable.AgentFunc(simpleAgent), "a3": roundtable.AgentFunc(simpleAgent),
	}}
	var wg sync.WaitGroup
	for i := range tables {
		wg.Go(func() {
			id := fmt.Sprintf("table-%02d", i)
			tbl, err := roundtable.Create(ctx, s, clock, SampleTask(), id, cfg)
			if err != nil {
				t.Errorf("create %s: %v", id, err)
				return
			}
			if _, err := runner.Run(ctx, tbl); err != nil {
				t.Errorf("run %s: %v", id, err)
			}
		})
	}
	wg.Wait()
	sums, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != tables {
		t.Fatalf("Tables returned %d summaries, want %d", len(sums), tables)
	}
	for _, sum := range sums {
		events := mustLoad(t, s, sum.ID)
		checkGapless(t, sum.ID, events)
		st, err := roundtable.Replay(events)
		if err != nil {
			t.Errorf("replay %s: %v", sum.ID, err)
			continue
		}
		if st.Status != roundtable.StatusEnded || sum.Status != roundtable.StatusEnded || sum.Events != uint64(len(events)) {
			t.Errorf("table %s: state %s, summary %s with %d events; want ended with %d", sum.ID, st.Status, sum.Status, sum.Events, len(events))
		}
	}
}

// simpleAgent says something, proposes one of two texts and votes for the
// first candidate.
func simpleAgent(_ context.Context, v roundtable.View) (roundtable.Action, error) {
	switch v.Phase {
	case roundtable.PhaseMessage:
		return roundtable.Say{Text: "hello from " + v.Self.Name}, nil
	case roundtable.PhaseProposal:
		return roundtable.Propose{Proposal: roundtable.Proposal{Text: fmt.Sprintf("option %d", v.Index%2)}}, nil
	default:
		return roundtable.Cast{Ballot: vote.Ballot{Choice: v.Candidates[0].ID}}, nil
	}
}

// testRacingWriters has several writers per table race for each next Seq;
// losers get Conflict, reload and retry. Nothing may be lost or doubled.
func testRacingWriters(t *testing.T, s roundtable.Store) {
	const tables, writers, each = 16, 4, 5
	var wg sync.WaitGroup
	for i := range tables {
		id := fmt.Sprintf("race-%02d", i)
		startTable(t, s, id)
		for w := range writers {
			wg.Go(func() { raceWriter(t, s, id, fmt.Sprintf("w%d", w), each) })
		}
	}
	wg.Wait()
	for i := range tables {
		id := fmt.Sprintf("race-%02d", i)
		events := mustLoad(t, s, id)
		checkGapless(t, id, events)
		if want := 2 + writers*each; len(events) != want {
			t.Errorf("table %s has %d events, want %d", id, len(events), want)
		}
		seen := map[string]bool{}
		for _, e := range events[2:] {
			text := e.Data.(roundtable.MessagePosted).Text
			if seen[text] {
				t.Errorf("table %s: %q stored twice", id, text)
			}
			seen[text] = true
		}
	}
}

func raceWriter(t *testing.T, s roundtable.Store, table, name string, n int) {
	ctx := t.Context()
	next := uint64(3)
	for done := 0; done < n; {
		e := message(table, next)
		e.Data = roundtable.MessagePosted{Round: 1, Text: fmt.Sprintf("%s #%d", name, done)}
		err := s.Append(ctx, table, []roundtable.Event{e})
		switch roundtable.ErrorCode(err) {
		case "":
			done++
			next++
		case roundtable.Conflict:
			events, err := s.Load(ctx, table)
			if err != nil {
				t.Errorf("writer %s: reload %s: %v", name, table, err)
				return
			}
			next = uint64(len(events)) + 1
		default:
			t.Errorf("writer %s: append to %s: %v", name, table, err)
			return
		}
	}
}

func checkGapless(t *testing.T, table string, events []roundtable.Event) {
	t.Helper()
	for i, e := range events {
		if e.Seq != uint64(i)+1 || e.Table != table {
			t.Errorf("table %s: event %d is seq %d of table %q", table, i, e.Seq, e.Table)
			return
		}
	}
}

// startTable creates and starts a sample table: events 1 and 2.
func startTable(t *testing.T, s roundtable.Store, id string) {
	t.Helper()
	tbl, err := roundtable.Create(t.Context(), s, newClock(), SampleTask(), id, SampleConfig(1))
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func created(table string, now time.Time) roundtable.Event {
	return roundtable.Event{Table: table, Seq: 1, Time: now, Data: roundtable.TableCreated{Config: SampleConfig(1).WithDefaults()}}
}

func message(table string, seq uint64) roundtable.Event {
	return roundtable.Event{Table: table, Seq: seq, Time: time.Date(2026, 3, 1, 9, 1, 0, 0, time.UTC), Actor: "bot-1",
		Data: roundtable.MessagePosted{Round: 1, Text: fmt.Sprintf("message %d", seq)}}
}

func seqs(events []roundtable.Event) []uint64 {
	out := make([]uint64, len(events))
	for i, e := range events {
		out[i] = e.Seq
	}
	return out
}

func mustLoad(t *testing.T, s roundtable.Store, table string) []roundtable.Event {
	t.Helper()
	events, err := s.Load(t.Context(), table)
	if err != nil {
		t.Fatalf("load %s: %v", table, err)
	}
	return events
}

// MustJSON encodes v, failing t if it does not encode.
func MustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode %T: %v", v, err)
	}
	return string(b)
}
