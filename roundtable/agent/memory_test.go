package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// longView is view with n finished rounds.
func longView(n int) roundtable.View {
	v := view(roundtable.PhaseMessage, vote.Plurality)
	r1 := v.History[0]
	v.History = nil
	for i := 1; i <= n; i++ {
		r := r1
		r.Round = i
		r.Messages = []roundtable.Message{{From: "b", Text: fmt.Sprintf("Message of round %d.", i)}}
		v.History = append(v.History, r)
	}
	v.Round = n + 1
	v.Rounds = n + 2
	return v
}

func TestWindowKeepsRecentRoundsVerbatim(t *testing.T) {
	got := windowText(longView(5), 2)
	for _, want := range []string{"Earlier rounds, in short:", `- Round 1: Bob: "Message of round 1."`, "### Round 4", "### Round 5"} {
		if !strings.Contains(got, want) {
			t.Errorf("window text lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "### Round 3") {
		t.Errorf("round 3 should be compressed:\n%s", got)
	}
}

func TestReflectiveMemoryUpdatesOncePerRound(t *testing.T) {
	var mu sync.Mutex
	notes := 0
	llm := &scripted{answer: func(r Request, _ int) (string, error) {
		if r.Schema.Name == "memory" {
			mu.Lock()
			defer mu.Unlock()
			notes++
			return fmt.Sprintf(`{"memory":"notes #%d"}`, notes), nil
		}
		return `{"to":[],"text":"ok"}`, nil
	}}
	a := newAgent(llm, Options{Memory: MemoryReflective})
	v := longView(2)
	var wg sync.WaitGroup
	for range 4 { // the same participant asked concurrently must update once
		wg.Go(func() {
			if act, _ := a.Act(context.Background(), v); act == nil {
				t.Error("no action")
			}
		})
	}
	wg.Wait()
	if notes != 1 {
		t.Fatalf("%d memory updates, want 1", notes)
	}
	a.Act(context.Background(), v)
	last := llm.reqs[len(llm.reqs)-1].Messages[1].Content
	if !strings.Contains(last, "notes #1") || !strings.Contains(last, "### Round 2") || strings.Contains(last, "### Round 1") {
		t.Errorf("prompt should hold the notes and only the last round verbatim:\n%s", last)
	}
	v.History = append(v.History, roundtable.RoundRecord{Round: 3})
	v.Round++
	a.Act(context.Background(), v)
	if notes != 2 {
		t.Errorf("%d memory updates after a new round, want 2", notes)
	}
}

func TestReflectiveMemoryFallsBackWhenTheModelFails(t *testing.T) {
	llm := &scripted{answer: func(r Request, _ int) (string, error) {
		if r.Schema.Name == "memory" {
			return "", &Error{Code: CodeUnavailable, Err: errors.New("down")}
		}
		return `{"to":[],"text":"ok"}`, nil
	}}
	act, _ := newAgent(llm, Options{Memory: MemoryReflective}).Act(context.Background(), longView(2))
	say, ok := act.(roundtable.Say)
	if !ok || say.Usage.Calls != 2 {
		t.Fatalf("got %#v, want a message with both calls in its usage", act)
	}
	if !strings.Contains(llm.reqs[1].Messages[1].Content, `- Round 1: Bob: "Message of round 1."`) {
		t.Errorf("fallback notes missing:\n%s", llm.reqs[1].Messages[1].Content)
	}
}

// grid is a structured task whose proposal is a pair of integers.
type grid struct{ roundtable.TextTask }

func (grid) Kind() string { return "grid" }

func (grid) ProposalSchema() (string, json.RawMessage) {
	return "proposal_grid", json.RawMessage(`{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"],"additionalProperties":false}`)
}

func (grid) Normalize(p roundtable.Proposal) (roundtable.Proposal, error) {
	var v struct{ X int }
	if err := json.Unmarshal(p.Data, &v); err != nil || v.X < 0 {
		return roundtable.Proposal{}, roundtable.Errorf(roundtable.Invalid, "x must be a non-negative integer")
	}
	return roundtable.Proposal{Text: fmt.Sprintf("x = %d", v.X), Data: json.RawMessage(fmt.Sprintf(`{"x":%d}`, v.X))}, nil
}

func TestStructuredTaskUsesItsSchemaAndNormalize(t *testing.T) {
	llm := answers(`{"reasoning":"","skip":false,"proposal":{"x":-1}}`, `{"reasoning":"","skip":false,"proposal":{"x": 4}}`)
	act, _ := New(llm, grid{}, Options{}).Act(context.Background(), view(roundtable.PhaseProposal, vote.Plurality))
	p, ok := act.(roundtable.Propose)
	if !ok || p.Proposal.Text != "x = 4" || string(p.Proposal.Data) != `{"x":4}` {
		t.Fatalf("got %#v, want the normalised proposal", act)
	}
	if llm.reqs[0].Schema.Name != "proposal_grid" || !strings.Contains(string(llm.reqs[0].Schema.JSON), `"proposal":{"type":"object"`) {
		t.Errorf("schema %s %s", llm.reqs[0].Schema.Name, llm.reqs[0].Schema.JSON)
	}
	if !strings.Contains(llm.reqs[1].Messages[3].Content, "x must be a non-negative integer") {
		t.Errorf("re-ask lacks the task's error: %s", llm.reqs[1].Messages[3].Content)
	}
}

func TestFormatErrorsCountsFailuresAndRejections(t *testing.T) {
	s := &roundtable.State{Config: roundtable.Config{Rule: vote.Rated}, Rounds: []roundtable.RoundRecord{
		{Failures: []roundtable.Failure{{Participant: "b", Phase: roundtable.PhaseVote, Kind: "format"}, {Participant: "a", Phase: roundtable.PhaseMessage, Kind: "timeout"}}},
		{Failures: []roundtable.Failure{{Participant: "b", Phase: roundtable.PhaseVote, Kind: "format"}, {Participant: "a", Phase: roundtable.PhaseProposal, Kind: "format"}},
			Rejected: []vote.Rejection{{Voter: "c", Reason: "score 6"}}},
	}}
	got := fmt.Sprint(FormatErrors(s))
	want := "[{a proposal rated 1} {b vote rated 2} {c vote rated 1}]"
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
