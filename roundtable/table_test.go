package roundtable_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func people(n int) []roundtable.Participant {
	ps := make([]roundtable.Participant, n)
	for i := range ps {
		ps[i] = roundtable.Participant{ID: fmt.Sprintf("p%d", i+1), Name: fmt.Sprintf("P%d", i+1), Kind: roundtable.Human}
	}
	return ps
}

func newTable(t *testing.T, cfg roundtable.Config) (*roundtable.Table, *roundtabletest.MemStore) {
	t.Helper()
	st := roundtabletest.NewMemStore()
	if cfg.Participants == nil {
		cfg.Participants = people(3)
	}
	if cfg.Rule == "" {
		cfg.Rule = vote.Plurality
	}
	tb, err := roundtable.Create(context.Background(), st, roundtabletest.NewClock(t0), roundtable.TextTask{Topic: "lunch"}, "t1", cfg)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	return tb, st
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func closePhase(t *testing.T, tb *roundtable.Table) {
	t.Helper()
	if _, err := tb.Close(context.Background(), roundtable.Position{}, roundtable.ClosedAllActed); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// playRound runs one round in which p_i proposes props[i] ("" = skip) and
// votes for choices[i] ("" = abstain).
func playRound(t *testing.T, tb *roundtable.Table, props, choices []string) {
	t.Helper()
	ctx := context.Background()
	for i := range props {
		must(t, tb.Do(ctx, roundtable.Say{Actor: fmt.Sprintf("p%d", i+1), Text: "hello from " + fmt.Sprint(i+1)}))
	}
	closePhase(t, tb)
	for i, p := range props {
		id := fmt.Sprintf("p%d", i+1)
		if p == "" {
			must(t, tb.Do(ctx, roundtable.Skip{Actor: id}))
		} else {
			must(t, tb.Do(ctx, roundtable.Propose{Actor: id, Proposal: roundtable.Proposal{Text: p}}))
		}
	}
	closePhase(t, tb)
	var vs roundtable.Status
	var ph roundtable.Phase
	tb.Read(func(s *roundtable.State) { vs, ph = s.Status, s.Phase })
	if vs != roundtable.StatusRunning || ph != roundtable.PhaseVote {
		return
	}
	for i, c := range choices {
		b := vote.Ballot{Choice: c, Abstain: c == ""}
		must(t, tb.Do(ctx, roundtable.Cast{Actor: fmt.Sprintf("p%d", i+1), Ballot: b}))
	}
	closePhase(t, tb)
}

func TestTableDecidesAndMergesIdenticalCandidates(t *testing.T) {
	tb, _ := newTable(t, roundtable.Config{Rounds: 2})
	must(t, tb.Start(context.Background()))
	playRound(t, tb, []string{"Pizza", "  pizza ", "Sushi"}, []string{"A", "A", "B"})
	s := tb.Snapshot()
	r := s.Rounds[0]
	if len(r.Candidates) != 2 {
		t.Fatalf("candidates = %+v, want pizza merged into one", r.Candidates)
	}
	if got := r.Candidates[0].Proposers; len(got) != 2 {
		t.Errorf("proposers of A = %v, want p1 and p2", got)
	}
	if s.Decision == nil || s.Decision.Proposal.Text != "Pizza" {
		t.Fatalf("decision = %+v, want Pizza", s.Decision)
	}
	// Round 2: everyone skips; candidates are the latest proposals plus the
	// decision (merged with Pizza).
	playRound(t, tb, []string{"", "", ""}, []string{"B", "B", "A"})
	s = tb.Snapshot()
	if s.Status != roundtable.StatusEnded || s.EndReason != roundtable.EndRounds {
		t.Fatalf("status %s (%s), want ended after 2 rounds", s.Status, s.EndReason)
	}
	if c := s.Rounds[1].Candidates; len(c) != 2 || !c[0].Incumbent {
		t.Errorf("round 2 candidates = %+v, want Pizza (incumbent) and Sushi", c)
	}
	if s.Output == nil || s.Output.Proposal.Text != "Sushi" {
		t.Errorf("output = %+v, want Sushi", s.Output)
	}
}

func TestTieDefersAndKeepsDecision(t *testing.T) {
	tb, _ := newTable(t, roundtable.Config{Rounds: 2, Participants: people(2)})
	must(t, tb.Start(context.Background()))
	playRound(t, tb, []string{"Pizza", "Sushi"}, []string{"A", "A"})
	playRound(t, tb, []string{"Tacos", ""}, []string{"A", "B"})
	s := tb.Snapshot()
	tally := s.Rounds[1].Tally
	if tally.Winner != "" || len(tally.Tied) != 2 {
		t.Fatalf("round 2 tally = %+v, want a deferred tie", tally)
	}
	if s.Output == nil || s.Output.Proposal.Text != "Pizza" {
		t.Errorf("output = %+v, want the earlier decision Pizza kept", s.Output)
	}
}

func TestNothingDecidedWithoutProposals(t *testing.T) {
	tb, _ := newTable(t, roundtable.Config{Rounds: 1})
	must(t, tb.Start(context.Background()))
	playRound(t, tb, []string{"", "", ""}, nil)
	s := tb.Snapshot()
	if s.Status != roundtable.StatusEnded || s.Output != nil {
		t.Fatalf("status %s output %+v: want ended with nothing decided", s.Status, s.Output)
	}
	if s.Rounds[0].Tally == nil || s.Rounds[0].Tally.Reason == "" {
		t.Errorf("round tally %+v: want a reason for no vote", s.Rounds[0].Tally)
	}
}

func TestBallotRules(t *testing.T) {
	ctx := context.Background()
	tb, _ := newTable(t, roundtable.Config{Rounds: 1, Rule: vote.Rated})
	must(t, tb.Start(ctx))
	err := tb.Do(ctx, roundtable.Cast{Actor: "p1", Ballot: vote.Ballot{Abstain: true}})
	if roundtable.ErrorCode(err) != roundtable.Conflict {
		t.Errorf("vote in message phase: %v, want conflict", err)
	}
	closePhase(t, tb)
	must(t, tb.Do(ctx, roundtable.Propose{Actor: "p1", Proposal: roundtable.Proposal{Text: "x"}}))
	must(t, tb.Do(ctx, roundtable.Propose{Actor: "p2", Proposal: roundtable.Proposal{Text: "y"}}))
	must(t, tb.Do(ctx, roundtable.Propose{Actor: "p1", Proposal: roundtable.Proposal{Text: "z"}})) // replaces x
	if err := tb.Do(ctx, roundtable.Propose{Actor: "p3", Proposal: roundtable.Proposal{Text: "   "}}); roundtable.ErrorCode(err) != roundtable.Invalid {
		t.Errorf("empty proposal: %v, want invalid", err)
	}
	closePhase(t, tb)

	err = tb.Do(ctx, roundtable.Cast{Actor: "mallory", Ballot: vote.Ballot{Scores: map[string]int{"A": 5, "B": 5}}})
	if roundtable.ErrorCode(err) != roundtable.Forbidden {
		t.Errorf("non-participant ballot: %v, want forbidden", err)
	}
	err = tb.Do(ctx, roundtable.Cast{Actor: "p1", Ballot: vote.Ballot{Scores: map[string]int{"A": 6, "B": 1}}})
	if roundtable.ErrorCode(err) != roundtable.Invalid {
		t.Errorf("score 6: %v, want invalid", err)
	}
	must(t, tb.Do(ctx, roundtable.Cast{Actor: "p1", Ballot: vote.Ballot{Scores: map[string]int{"A": 1, "B": 5}}}))
	// p1 changes its mind: the last valid ballot counts.
	must(t, tb.Do(ctx, roundtable.Cast{Actor: "p1", Ballot: vote.Ballot{Scores: map[string]int{"A": 5, "B": 1}}}))
	must(t, tb.Do(ctx, roundtable.Cast{Actor: "p2", Ballot: vote.Ballot{Scores: map[string]int{"A": 4, "B": 2}}}))
	closePhase(t, tb)
	err = tb.Do(ctx, roundtable.Cast{Actor: "p3", Ballot: vote.Ballot{Scores: map[string]int{"A": 1, "B": 5}}})
	if roundtable.ErrorCode(err) != roundtable.Conflict {
		t.Errorf("late ballot: %v, want conflict", err)
	}
	s := tb.Snapshot()
	tally := s.Rounds[0].Tally
	if tally.Winner != "A" || tally.Totals["A"] != "9" || tally.Counted != 2 {
		t.Errorf("tally = %+v, want A with 9 from two ballots", tally)
	}
	if len(s.Rounds[0].Rejected) != 1 {
		t.Errorf("rejected = %+v, want the score-6 ballot", s.Rounds[0].Rejected)
	}
}

func TestDuplicateKeyRecordedOnce(t *testing.T) {
	ctx := context.Background()
	tb, st := newTable(t, roundtable.Config{Rounds: 1})
	must(t, tb.Start(ctx))
	must(t, tb.Do(ctx, roundtable.Say{Actor: "p1", Key: "msg-1", Text: "hi"}))
	err := tb.Do(ctx, roundtable.Say{Actor: "p1", Key: "msg-1", Text: "hi"})
	if roundtable.ErrorCode(err) != roundtable.Duplicate {
		t.Fatalf("redelivery: %v, want duplicate", err)
	}
	evs, _ := st.Load(ctx, "t1")
	n := 0
	for _, e := range evs {
		if e.Type() == "message_posted" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d messages recorded, want 1", n)
	}
}

func TestEarlyStops(t *testing.T) {
	t.Run("first agreement", func(t *testing.T) {
		tb, _ := newTable(t, roundtable.Config{Rounds: 5, EarlyStop: roundtable.StopFirst})
		must(t, tb.Start(context.Background()))
		playRound(t, tb, []string{"a", "b", "c"}, []string{"A", "B", "C"})
		playRound(t, tb, []string{"", "", ""}, []string{"A", "A", "C"})
		s := tb.Snapshot()
		if s.Status != roundtable.StatusEnded || s.EndReason != roundtable.EndFirst || s.Round != 2 {
			t.Fatalf("status %s reason %q round %d, want ended by first agreement in round 2", s.Status, s.EndReason, s.Round)
		}
	})
	t.Run("consecutive agreements", func(t *testing.T) {
		tb, _ := newTable(t, roundtable.Config{Rounds: 5, EarlyStop: roundtable.StopConsecutive})
		must(t, tb.Start(context.Background()))
		playRound(t, tb, []string{"a", "b", "c"}, []string{"A", "A", "C"})
		playRound(t, tb, []string{"", "a", ""}, nil) // re-proposing a known candidate is not new
		s := tb.Snapshot()
		if s.Status != roundtable.StatusEnded || s.EndReason != roundtable.EndConsecutive {
			t.Fatalf("status %s reason %q, want ended by consecutive agreements", s.Status, s.EndReason)
		}
		if s.Output == nil || s.Output.Proposal.Text != "a" {
			t.Errorf("output %+v, want a", s.Output)
		}
	})
}

func TestFailedWriteLeavesStateAsLogged(t *testing.T) {
	ctx := context.Background()
	tb, st := newTable(t, roundtable.Config{Rounds: 1})
	must(t, tb.Start(ctx))
	st.FailAppend = errors.New("disk full")
	if err := tb.Do(ctx, roundtable.Say{Actor: "p1", Text: "lost"}); err == nil {
		t.Fatal("Do succeeded with a failing store")
	}
	st.FailAppend = nil
	s := tb.Snapshot()
	if len(s.Current().Messages) != 0 || s.Acted["p1"] {
		t.Fatalf("state has the unrecorded message: %+v", s.Current())
	}
	must(t, tb.Do(ctx, roundtable.Say{Actor: "p1", Text: "kept"}))
}

// TestReplayEqualsLiveStateAtEveryEvent rebuilds the state from each prefix
// of the stored log and compares it with the live state captured after the
// write that produced that prefix.
func TestReplayEqualsLiveStateAtEveryEvent(t *testing.T) {
	ctx := context.Background()
	tb, st := newTable(t, roundtable.Config{Rounds: 3, Rule: vote.Ranked, Tie: vote.TiePolicy("incumbent")})
	live := map[uint64]string{}
	snap := func() {
		s := tb.Snapshot()
		live[s.Seq] = stateJSON(t, s)
	}
	snap()
	must(t, tb.Start(ctx))
	snap()
	for r := 0; r < 3; r++ {
		for i := 1; i <= 3; i++ {
			must(t, tb.Do(ctx, roundtable.Say{Actor: fmt.Sprintf("p%d", i), Text: fmt.Sprintf("round %d from %d", r, i), To: []string{"p1"}}))
			snap()
		}
		closePhase(t, tb)
		snap()
		for i := 1; i <= 3; i++ {
			must(t, tb.Do(ctx, roundtable.Propose{Actor: fmt.Sprintf("p%d", i), Proposal: roundtable.Proposal{Text: fmt.Sprintf("plan %d", (i+r)%2)}, Reasoning: "secret"}))
			snap()
		}
		closePhase(t, tb)
		snap()
		for i := 1; i <= 3; i++ {
			_ = tb.Do(ctx, roundtable.Cast{Actor: fmt.Sprintf("p%d", i), Ballot: vote.Ballot{Ranking: []string{"B", "A"}}})
			snap()
		}
		closePhase(t, tb)
		snap()
	}
	evs, err := st.Load(ctx, "t1")
	must(t, err)
	for n := 1; n <= len(evs); n++ {
		want, ok := live[uint64(n)]
		if !ok {
			continue // an intermediate event of a multi-event transaction
		}
		got, err := roundtable.Replay(evs[:n])
		must(t, err)
		if g := stateJSON(t, got); g != want {
			t.Fatalf("replay of %d events differs from live state:\nreplay %s\nlive   %s", n, g, want)
		}
	}
	if len(live) < 30 {
		t.Errorf("only %d snapshots compared", len(live))
	}
}

func stateJSON(t *testing.T, s *roundtable.State) string {
	t.Helper()
	b, err := json.Marshal(s)
	must(t, err)
	return string(b)
}

func TestViewHidesWhatIsNotRevealed(t *testing.T) {
	ctx := context.Background()
	tb, _ := newTable(t, roundtable.Config{Rounds: 2})
	must(t, tb.Start(ctx))
	must(t, tb.Do(ctx, roundtable.Say{Actor: "p1", Text: "sealed"}))
	v, err := tb.View(t.Context(), "p2")
	must(t, err)
	if len(v.Current.Messages) != 0 {
		t.Errorf("p2 sees %d messages of an open sealed phase", len(v.Current.Messages))
	}
	closePhase(t, tb)
	must(t, tb.Do(ctx, roundtable.Propose{Actor: "p1", Proposal: roundtable.Proposal{Text: "x"}, Reasoning: "private thoughts"}))
	v, _ = tb.View(t.Context(), "p2")
	if len(v.Current.Messages) != 1 || len(v.Current.Proposals) != 0 {
		t.Errorf("p2 view in proposal phase: %d messages, %d proposals; want 1, 0", len(v.Current.Messages), len(v.Current.Proposals))
	}
	closePhase(t, tb)
	v, _ = tb.View(t.Context(), "p2")
	if len(v.Current.Proposals) != 1 || v.Current.Proposals[0].Reasoning != "" {
		t.Errorf("p2 sees %+v, want p1's proposal without its reasoning", v.Current.Proposals)
	}
	v, _ = tb.View(t.Context(), "p1")
	if v.Current.Proposals[0].Reasoning != "private thoughts" || v.Own == nil {
		t.Errorf("p1 should see its own reasoning and proposal: %+v", v.Current.Proposals)
	}
}
