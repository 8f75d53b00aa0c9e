package roundtable_test

import (
	"reflect"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// TestViewHistoryMatchesRedactingEveryRound checks the incremental history
// of Table.View against redacting the whole state afresh, for every
// participant after every round of a played table.
func TestViewHistoryMatchesRedactingEveryRound(t *testing.T) {
	clock := roundtabletest.NewClock(t0)
	tbl, err := roundtabletest.StartTable(t.Context(), roundtabletest.NewMemStore(), clock, "t1", 4)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"alice", "bob", "bot-1", "bot-2"}
	for round := 1; round <= 4; round++ {
		for _, id := range ids {
			v, err := tbl.View(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			if want := redactedHistory(tbl.Snapshot(), id); !reflect.DeepEqual(v.History, want) {
				t.Fatalf("round %d, %s sees\n%+v\nwant\n%+v", round, id, v.History, want)
			}
			if round == 3 && len(v.History) > 0 {
				v.History = append(v.History, roundtable.RoundRecord{Round: 99}) // must not reach later views
			}
		}
		if err := roundtabletest.PlayRound(t.Context(), tbl, clock); err != nil {
			t.Fatal(err)
		}
	}
}

func redactedHistory(s *roundtable.State, id string) []roundtable.RoundRecord {
	var out []roundtable.RoundRecord
	for _, r := range s.Rounds {
		if r.Round >= s.Round {
			break
		}
		for i := range r.Proposals {
			if r.Proposals[i].By != id {
				r.Proposals[i].Reasoning = ""
			}
		}
		out = append(out, r)
	}
	return out
}

// countingTask is the sample text task as a Decoder that counts its calls.
type countingTask struct {
	roundtable.TextTask
	calls *int
}

func (c countingTask) Decode(p roundtable.Proposal) (any, error) {
	*c.calls++
	return "decoded " + p.Text, nil
}

func TestViewDecodesEachCandidateOncePerPhase(t *testing.T) {
	calls := 0
	clock := roundtabletest.NewClock(t0)
	task := countingTask{roundtabletest.SampleTask(), &calls}
	tbl, err := roundtable.Create(t.Context(), roundtabletest.NewMemStore(), clock, task, "t1", roundtabletest.SampleConfig(2))
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	closePhase(t, tbl) // message
	for _, a := range []roundtable.Action{
		roundtable.Propose{Actor: "alice", Proposal: roundtable.Proposal{Text: "Plant trees"}},
		roundtable.Propose{Actor: "bot-1", Proposal: roundtable.Proposal{Text: "Build a park"}},
	} {
		if err := tbl.Do(t.Context(), a); err != nil {
			t.Fatal(err)
		}
	}
	closePhase(t, tbl) // proposal
	for range 3 {
		for _, id := range []string{"alice", "bot-1", "bot-2"} {
			v, err := tbl.View(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			want := []any{"decoded Plant trees", "decoded Build a park"}
			if v.Phase != roundtable.PhaseVote || !reflect.DeepEqual(v.Decoded, want) || v.DecodedDecision != nil {
				t.Fatalf("%s in %s sees Decoded %v, DecodedDecision %v; want %v, nil", id, v.Phase, v.Decoded, v.DecodedDecision, want)
			}
		}
	}
	if calls != 2 {
		t.Errorf("Decode was called %d times for 2 candidates and 9 views, want 2", calls)
	}
}
