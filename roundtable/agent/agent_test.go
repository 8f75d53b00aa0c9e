package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// scripted is a fake LLM that answers from a function of the request and of
// how many requests came before.
type scripted struct {
	mu     sync.Mutex
	reqs   []Request
	answer func(req Request, n int) (string, error)
}

func (s *scripted) Complete(ctx context.Context, req Request) (Response, error) {
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return Response{}, &Error{Code: CodeTimeout, Usage: roundtable.Usage{Calls: 1}, Err: err}
	}
	out, err := s.answer(req, n)
	if err != nil {
		return Response{}, err
	}
	return Response{Content: out, Usage: roundtable.Usage{Calls: 1, PromptTokens: 10, CompletionTokens: 5}}, nil
}

func answers(outs ...string) *scripted {
	return &scripted{answer: func(_ Request, n int) (string, error) { return outs[min(n, len(outs)-1)], nil }}
}

var people = []roundtable.Participant{
	{ID: "a", Name: "Alice", Kind: roundtable.Bot, Background: "A farmer with land by the river.", Goal: "Keep the water clean."},
	{ID: "b", Name: "Bob", Kind: roundtable.Bot, Stance: "Sceptical of new rules."},
	{ID: "c", Name: "Carol", Kind: roundtable.Human},
}

// view is a round-2 view of Alice with one finished round behind her.
func view(phase roundtable.Phase, rule vote.Rule) roundtable.View {
	task := roundtable.TextTask{Topic: "how should the village share the river?"}
	dec := &roundtable.Candidate{ID: "B", Proposal: roundtable.Proposal{Text: "Take turns by day."}, Proposers: []string{"b"}}
	v := roundtable.View{
		Table: "t1", Title: "River", Brief: task.Brief(), Private: "You own the upstream field.", Rule: rule,
		Mode: roundtable.Sealed, Self: people[0], Index: 0, Participants: people, Round: 2, Rounds: 3, Phase: phase, Seed: 7,
		History: []roundtable.RoundRecord{{
			Round:      1,
			Messages:   []roundtable.Message{{From: "a", Text: "We need a schedule."}, {From: "b", To: []string{"a"}, Text: "Days, then?"}},
			Proposals:  []roundtable.ProposalRecord{{By: "a", Proposal: roundtable.Proposal{Text: "Share by acreage."}}, {By: "b", Proposal: dec.Proposal}},
			Failures:   []roundtable.Failure{{Participant: "c", Phase: roundtable.PhaseProposal, Kind: "timeout"}},
			Candidates: []roundtable.Candidate{{ID: "A", Proposal: roundtable.Proposal{Text: "Share by acreage."}, Proposers: []string{"a"}}, *dec},
			Tally:      &roundtable.Tally{Rule: rule, Winner: "B", Totals: map[string]json.Number{"A": "1", "B": "2"}, Counted: 3},
			Decision:   dec,
		}},
		Decision: dec,
		Own:      &roundtable.Proposal{Text: "Share by acreage."},
	}
	if phase >= roundtable.PhaseProposal {
		v.Current.Messages = []roundtable.Message{{From: "c", Text: "I can live with days."}}
	}
	if phase == roundtable.PhaseVote {
		v.Candidates = []roundtable.Candidate{
			{ID: "A", Proposal: roundtable.Proposal{Text: "Share by acreage."}, Proposers: []string{"a"}},
			{ID: "B", Proposal: dec.Proposal, Proposers: []string{"b", "c"}, Incumbent: true},
		}
	}
	return v
}

func newAgent(llm LLM, opt Options) *Agent {
	return New(llm, roundtable.TextTask{Topic: "how should the village share the river?"}, opt)
}

func TestActReturnsValidActionPerPhase(t *testing.T) {
	cases := []struct {
		phase  roundtable.Phase
		rule   vote.Rule
		answer string
		want   roundtable.Action
	}{
		{roundtable.PhaseMessage, vote.Plurality, `{"to":["Bob"],"text":"Hello"}`, roundtable.Say{To: []string{"b"}, Text: "Hello"}},
		{roundtable.PhaseMessage, vote.Plurality, `{"to":["Bob","Carol"],"text":"Hi all"}`, roundtable.Say{Text: "Hi all"}},
		{roundtable.PhaseProposal, vote.Plurality, "```json\n{\"reasoning\":\"r\",\"skip\":false,\"proposal\":\" Mornings \"}\n```",
			roundtable.Propose{Proposal: roundtable.Proposal{Text: "Mornings"}, Reasoning: "r"}},
		{roundtable.PhaseProposal, vote.Plurality, `Sure! {"reasoning":"r","skip":true,"proposal":""}`, roundtable.Skip{Reasoning: "r"}},
		{roundtable.PhaseVote, vote.Plurality, `{"reasoning":"","abstain":false,"choice":"B"}`,
			roundtable.Cast{Ballot: vote.Ballot{Voter: "a", Choice: "B"}}},
		// the explanation the vote schema asks for stays with the ballot
		{roundtable.PhaseVote, vote.Plurality, `{"reasoning":" B is cheaper. ","abstain":false,"choice":"B"}`,
			roundtable.Cast{Ballot: vote.Ballot{Voter: "a", Choice: "B", Reason: "B is cheaper."}}},
		{roundtable.PhaseVote, vote.Rated, `{"reasoning":"","abstain":false,"scores":{"A":5,"B":2}}`,
			roundtable.Cast{Ballot: vote.Ballot{Voter: "a", Scores: map[string]int{"A": 5, "B": 2}}}},
		{roundtable.PhaseVote, vote.Borda, `{"reasoning":"","abstain":true,"ranking":["A"]}`,
			roundtable.Cast{Ballot: vote.Ballot{Voter: "a", Abstain: true}}},
	}
	for _, c := range cases {
		t.Run(c.phase.String()+"/"+string(c.rule), func(t *testing.T) {
			got, err := newAgent(answers(c.answer), Options{}).Act(context.Background(), view(c.phase, c.rule))
			if err != nil {
				t.Fatal(err)
			}
			if g, w := mustJSON(t, withUsage(got, roundtable.Usage{})), mustJSON(t, withUsage(c.want, roundtable.Usage{})); g != w {
				t.Errorf("got %s\nwant %s", g, w)
			}
		})
	}
}

func TestInvalidAnswerIsAskedAgainWithTheError(t *testing.T) {
	llm := answers(`{"reasoning":"","abstain":false,"scores":{"A":7,"B":2}}`, `{"reasoning":"","abstain":false,"scores":{"A":5,"B":2}}`)
	got, _ := newAgent(llm, Options{}).Act(context.Background(), view(roundtable.PhaseVote, vote.Rated))
	cast, ok := got.(roundtable.Cast)
	if !ok || cast.Ballot.Scores["A"] != 5 {
		t.Fatalf("got %#v, want the repaired ballot", got)
	}
	if cast.Usage.Calls != 2 || cast.Usage.PromptTokens != 20 {
		t.Errorf("usage %+v, want both calls summed", *cast.Usage)
	}
	repair := llm.reqs[1].Messages
	if n := len(repair); n != 4 || repair[2].Role != RoleAssistant || !strings.Contains(repair[3].Content, "score 7 for A is out of range 1..5") {
		t.Errorf("re-ask does not carry the answer and the precise error: %+v", repair)
	}
}

func TestInvalidTwiceIsAFormatFailure(t *testing.T) {
	llm := answers("not json", `{"reasoning":"","abstain":false,"choice":"Z"}`)
	got, _ := newAgent(llm, Options{}).Act(context.Background(), view(roundtable.PhaseVote, vote.Plurality))
	f, ok := got.(roundtable.Fail)
	if !ok || f.Kind != "format" || !strings.Contains(f.Reason, `unknown candidate "Z"`) {
		t.Fatalf("got %#v, want a format failure naming the candidate", got)
	}
	if f.Usage.Calls != 2 {
		t.Errorf("usage %+v, want 2 calls", *f.Usage)
	}
}

func TestModelErrorsBecomeFailures(t *testing.T) {
	boom := &Error{Code: CodeUnavailable, Usage: roundtable.Usage{Calls: 1, Retries: 3}, Err: errors.New("503")}
	llm := &scripted{answer: func(Request, int) (string, error) { return "", boom }}
	got, err := newAgent(llm, Options{}).Act(context.Background(), view(roundtable.PhaseMessage, vote.Plurality))
	if f, ok := got.(roundtable.Fail); err != nil || !ok || f.Kind != "error" || f.Usage.Retries != 3 {
		t.Fatalf("got %#v, %v; want an error failure with the retries", got, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, _ = newAgent(answers("{}"), Options{}).Act(ctx, view(roundtable.PhaseMessage, vote.Plurality))
	if f, ok := got.(roundtable.Fail); !ok || f.Kind != "timeout" {
		t.Fatalf("got %#v, want a timeout failure", got)
	}
}

func TestNoCandidatesAbstainsWithoutAsking(t *testing.T) {
	llm := answers("{}")
	v := view(roundtable.PhaseVote, vote.Majority)
	v.Candidates = nil
	got, _ := newAgent(llm, Options{}).Act(context.Background(), v)
	if c, ok := got.(roundtable.Cast); !ok || !c.Ballot.Abstain || len(llm.reqs) != 0 {
		t.Fatalf("got %#v after %d calls, want an abstention and no call", got, len(llm.reqs))
	}
}

func TestSchemaGoesInThePromptWhenNotEnforced(t *testing.T) {
	llm := answers(`{"to":[],"text":"hi"}`)
	newAgent(llm, Options{StructuredOutput: OutputNone}).Act(context.Background(), view(roundtable.PhaseMessage, vote.Plurality))
	if u := llm.reqs[0].Messages[1].Content; !strings.Contains(u, "follows the JSON schema \"message\":\n{") || !strings.Contains(u, `"required":["to","text"]`) || llm.reqs[0].Output != OutputNone {
		t.Errorf("schema not in prompt:\n%s", u)
	}
}

func TestSeedsAreStableAndDistinct(t *testing.T) {
	v, again := view(roundtable.PhaseVote, vote.Plurality), view(roundtable.PhaseVote, vote.Plurality)
	if seedFor(v, v.Phase, 0) != seedFor(again, again.Phase, 0) || seedFor(v, v.Phase, 0) == seedFor(v, v.Phase, 1) {
		t.Error("seeds must repeat for the same request and differ between attempts")
	}
}

func TestOptionsValidate(t *testing.T) {
	for _, o := range []Options{{Memory: "forever"}, {Window: -1}, {StructuredOutput: "xml"}, {MaxTokens: -2}} {
		if o.Validate() == nil {
			t.Errorf("%+v: want an error", o)
		}
	}
	if err := (Options{Memory: MemoryWindow, StructuredOutput: OutputJSONObject}).Validate(); err != nil {
		t.Error(err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
