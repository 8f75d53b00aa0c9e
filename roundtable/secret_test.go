package roundtable_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// secretLog plays one round of a secret-ballot table in which p1 and p2
// vote A and p3 votes B.
func secretLog(t *testing.T, sec roundtable.Secrecy) []roundtable.Event {
	t.Helper()
	tb, st := newTable(t, roundtable.Config{Rounds: 1, Secret: sec})
	must(t, tb.Start(context.Background()))
	playRound(t, tb, []string{"Pizza", "Sushi", ""}, []string{"A", "A", "B"})
	evs, err := st.Load(context.Background(), "t1")
	must(t, err)
	return evs
}

func TestSecretBallotsLeaveNoVoterOnAnyBallot(t *testing.T) {
	evs := secretLog(t, roundtable.Secrecy{Ballots: true})
	out := roundtable.SecretBallots(evs, false)
	s, err := roundtable.Replay(out)
	must(t, err)
	tl := s.Rounds[0].Tally
	if tl.Winner != "A" || tl.Counted != 3 {
		t.Fatalf("tally %+v: the totals must survive", tl)
	}
	var got []string
	for _, b := range tl.Ballots {
		if b.Voter != "" {
			t.Errorf("ballot %+v keeps its voter", b)
		}
		got = append(got, b.Choice)
	}
	if !slices.Equal(got, []string{"A", "A", "B"}) {
		t.Errorf("ballots %v, want A A B in canonical order", got)
	}
	casts := 0
	for _, e := range out {
		switch d := e.Data.(type) {
		case roundtable.BallotCast:
			t.Errorf("ballot_cast of %s shows %+v", e.Actor, d.Ballot)
		case roundtable.Withheld:
			casts++
			if e.Actor != "" || e.Key != "" {
				t.Errorf("a withheld ballot keeps its actor %q or key %q", e.Actor, e.Key)
			}
		}
	}
	if casts != 3 {
		t.Errorf("%d withheld ballots, want 3: that ballots were cast stays visible", casts)
	}
	for _, b := range lastTally(t, evs).Ballots {
		if b.Voter == "" {
			t.Errorf("the input lost its voters: %+v", b)
		}
	}
}

// A vote's reason is kept with its ballot and shown with the tally, but a
// secret ballot shows none (written in the voter's words, it could name
// the voter) unless the research export keeps voter pseudonyms; a reason
// that is no text is refused.
func TestVoteReasonsGoWithTheBallot(t *testing.T) {
	ctx := context.Background()
	for _, sec := range []roundtable.Secrecy{{}, {Ballots: true}} {
		tb, st := newTable(t, roundtable.Config{Rounds: 1, Secret: sec})
		must(t, tb.Start(ctx))
		for i := range 3 {
			must(t, tb.Do(ctx, roundtable.Say{Actor: fmt.Sprintf("p%d", i+1), Text: "hi"}))
		}
		closePhase(t, tb)
		for i, p := range []string{"Pizza", "Sushi", ""} {
			id := fmt.Sprintf("p%d", i+1)
			if p == "" {
				must(t, tb.Do(ctx, roundtable.Skip{Actor: id}))
			} else {
				must(t, tb.Do(ctx, roundtable.Propose{Actor: id, Proposal: roundtable.Proposal{Text: p}}))
			}
		}
		closePhase(t, tb)
		if err := tb.Do(ctx, roundtable.Cast{Actor: "p1", Ballot: vote.Ballot{Choice: "A", Reason: "bad \xff"}}); roundtable.ErrorCode(err) != roundtable.Invalid {
			t.Errorf("a reason that is not UTF-8: %v, want it refused", err)
		}
		must(t, tb.Do(ctx, roundtable.Cast{Actor: "p1", Ballot: vote.Ballot{Choice: "A", Reason: " It is cheap. "}}))
		must(t, tb.Do(ctx, roundtable.Cast{Actor: "p2", Ballot: vote.Ballot{Choice: "A"}}))
		must(t, tb.Do(ctx, roundtable.Cast{Actor: "p3", Ballot: vote.Ballot{Choice: "B"}}))
		closePhase(t, tb)
		evs, err := st.Load(ctx, "t1")
		must(t, err)
		reasons := func(evs []roundtable.Event) []string {
			var out []string
			for _, b := range lastTally(t, evs).Ballots {
				if b.Reason != "" {
					out = append(out, b.Reason)
				}
			}
			return out
		}
		if got := reasons(evs); !slices.Equal(got, []string{"It is cheap."}) {
			t.Errorf("secret %v: the log's tally keeps reasons %q, want the trimmed one", sec.Ballots, got)
		}
		shown := reasons(roundtable.SecretBallots(evs, false))
		if want := !sec.Ballots; (len(shown) == 1) != want {
			t.Errorf("secret %v: shown reasons %q", sec.Ballots, shown)
		}
	}
}

func TestSecretBallotsResearchUsesVoterPseudonymsOnlyWhenAllowed(t *testing.T) {
	allowed := roundtable.SecretBallots(secretLog(t, roundtable.Secrecy{Ballots: true, Research: true, Key: "k"}), true)
	tl := lastTally(t, allowed)
	for _, b := range tl.Ballots {
		if !strings.HasPrefix(b.Voter, "voter-") {
			t.Errorf("research ballot %+v: want a voter pseudonym", b)
		}
	}
	notAllowed := roundtable.SecretBallots(secretLog(t, roundtable.Secrecy{Ballots: true}), true)
	for _, b := range lastTally(t, notAllowed).Ballots {
		if b.Voter != "" {
			t.Errorf("a table that did not allow research kept voter %q", b.Voter)
		}
	}
	namesExport := roundtable.SecretBallots(secretLog(t, roundtable.Secrecy{Ballots: true, Research: true, Key: "k"}), false)
	for _, b := range lastTally(t, namesExport).Ballots {
		if b.Voter != "" {
			t.Errorf("a view that is not the research export kept voter %q", b.Voter)
		}
	}
}

func TestSecretBallotsLeaveOpenTablesAlone(t *testing.T) {
	evs := secretLog(t, roundtable.Secrecy{})
	for _, b := range lastTally(t, roundtable.SecretBallots(evs, false)).Ballots {
		if b.Voter == "" {
			t.Errorf("an open table lost a voter: %+v", b)
		}
	}
}

func TestResearchNeedsSecretBallots(t *testing.T) {
	err := roundtable.Config{Rule: "plurality", Rounds: 1, Mode: roundtable.Sealed, EarlyStop: roundtable.StopNever, Tie: "defer",
		Secret: roundtable.Secrecy{Research: true}}.Validate()
	if err == nil || !strings.Contains(err.Error(), "secret.research") {
		t.Errorf("Validate = %v, want an error naming secret.research", err)
	}
}

func TestPseudonymOrderFollowsNeitherSeatNorJoinOrder(t *testing.T) {
	ids := []string{"p1", "p2", "p3", "p4", "p5", "p6"}
	moved := 0
	for k := range 8 {
		cfg := roundtable.Config{Secret: roundtable.Secrecy{Key: fmt.Sprint("key", k)}}
		got := roundtable.PseudonymOrder(cfg, "t", "human", ids)
		rev := slices.Clone(ids)
		slices.Reverse(rev)
		if !slices.Equal(got, roundtable.PseudonymOrder(cfg, "t", "human", rev)) {
			t.Fatalf("the order depends on the input order: %v", got)
		}
		if !slices.Equal(got, ids) {
			moved++
		}
	}
	if moved < 7 {
		t.Errorf("only %d of 8 keys reorder six seats", moved)
	}
}

func lastTally(t *testing.T, evs []roundtable.Event) roundtable.Tally {
	t.Helper()
	for i := len(evs) - 1; i >= 0; i-- {
		if d, ok := evs[i].Data.(roundtable.DecisionMade); ok {
			return d.Tally
		}
	}
	t.Fatal("no decision in the log")
	return roundtable.Tally{}
}
