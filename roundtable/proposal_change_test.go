package roundtable_test

import (
	"context"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

func TestALaterProposalReplacesTheEarlierUntilThePhaseCloses(t *testing.T) {
	ctx := context.Background()
	tb, _ := newTable(t, roundtable.Config{Rounds: 1})
	must(t, tb.Start(ctx))
	closePhase(t, tb)
	must(t, tb.Do(ctx, roundtable.Propose{Actor: "p1", Proposal: roundtable.Proposal{Text: "Piza"}}))
	must(t, tb.Do(ctx, roundtable.Propose{Actor: "p2", Proposal: roundtable.Proposal{Text: "Sushi"}}))
	must(t, tb.Do(ctx, roundtable.Propose{Actor: "p1", Proposal: roundtable.Proposal{Text: "Pizza"}, Reasoning: "typo fixed"}))
	must(t, tb.Do(ctx, roundtable.Skip{Actor: "p3"}))
	if err := tb.Do(ctx, roundtable.Propose{Actor: "p3", Proposal: roundtable.Proposal{Text: "Tacos"}}); roundtable.ErrorCode(err) != roundtable.Conflict {
		t.Errorf("a proposal after a skip: %v; want a conflict (a skip is final)", err)
	}
	closePhase(t, tb)
	s := tb.Snapshot()
	props := s.Rounds[0].Proposals
	if len(props) != 2 || props[0].By != "p1" || props[0].Proposal.Text != "Pizza" || props[0].Reasoning != "typo fixed" {
		t.Fatalf("proposals %+v; want p1's Pizza (in p1's first place) and p2's Sushi", props)
	}
	var texts []string
	for _, c := range s.Candidates {
		texts = append(texts, c.Proposal.Text)
	}
	if len(texts) != 2 || texts[0] != "Pizza" || texts[1] != "Sushi" {
		t.Errorf("candidates %v; want A Pizza, B Sushi", texts)
	}
	if err := tb.Do(ctx, roundtable.Propose{Actor: "p1", Proposal: roundtable.Proposal{Text: "Soup"}}); roundtable.ErrorCode(err) != roundtable.Conflict {
		t.Errorf("a proposal in the vote phase: %v; want a conflict", err)
	}
}

func TestCandidateLettersStayWithTheirProposalAcrossRounds(t *testing.T) {
	tb, _ := newTable(t, roundtable.Config{Rounds: 2})
	must(t, tb.Start(context.Background()))
	playRound(t, tb, []string{"Pizza", "Sushi", "Tacos"}, []string{"A", "A", "B"})
	playRound(t, tb, []string{"", "", "Curry"}, []string{"A", "D", "D"})
	s := tb.Snapshot()
	got := map[string]string{}
	for _, c := range s.Rounds[1].Candidates {
		got[c.ID] = c.Proposal.Text
	}
	want := map[string]string{"A": "Pizza", "B": "Sushi", "D": "Curry"}
	if len(got) != len(want) || got["A"] != want["A"] || got["B"] != want["B"] || got["D"] != want["D"] {
		t.Errorf("round 2 candidates %v; want %v (Tacos's C is not reused)", got, want)
	}
	if s.Output == nil || s.Output.Proposal.Text != "Curry" {
		t.Errorf("output %+v; want Curry, voted as D", s.Output)
	}
}
