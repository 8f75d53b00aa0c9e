package agent

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// switching refuses json_schema once, switching itself to json_object as
// the openai client does, then answers.
type switching struct {
	mode atomic.Value
	reqs []Request
}

func (s *switching) OutputMode() OutputMode { return s.mode.Load().(OutputMode) }

func (s *switching) Complete(_ context.Context, r Request) (Response, error) {
	s.reqs = append(s.reqs, r)
	if r.Output == OutputJSONSchema {
		s.mode.Store(OutputJSONObject)
		return Response{}, &Error{Code: CodeOutputMode}
	}
	return Response{Content: `{"to":[],"text":"fine"}`, Usage: roundtable.Usage{Calls: 1}}, nil
}

func TestAgentAsksAgainAfterTheEndpointSwitchesModes(t *testing.T) {
	llm := &switching{}
	llm.mode.Store(OutputJSONSchema)
	act, err := newAgent(llm, Options{}).Act(context.Background(), view(roundtable.PhaseMessage, vote.Plurality))
	if err != nil {
		t.Fatal(err)
	}
	if say, ok := act.(roundtable.Say); !ok || say.Text != "fine" || say.Usage.Calls != 2 {
		t.Fatalf("got %#v, want the message after two calls", act)
	}
	if len(llm.reqs) != 2 || llm.reqs[1].Output != OutputJSONObject || !strings.Contains(llm.reqs[1].Messages[1].Content, `JSON schema "message"`) {
		t.Errorf("second request %+v: want json_object with the schema in the prompt", llm.reqs[1])
	}
}

func TestCutOffAndRefusedAnswersAreTheirOwnFailures(t *testing.T) {
	for finish, kind := range map[Finish]string{FinishLength: "length", FinishRefusal: "refusal"} {
		llm := &fixed{resp: Response{Content: `{"to":[`, Finish: finish, Refusal: "no"}}
		act, _ := newAgent(llm, Options{}).Act(context.Background(), view(roundtable.PhaseMessage, vote.Plurality))
		f, ok := act.(roundtable.Fail)
		if !ok || f.Kind != kind || llm.calls != 1 {
			t.Errorf("%s: got %#v after %d calls, want one Fail of kind %s and no re-ask", finish, act, llm.calls, kind)
		}
	}
}

type fixed struct {
	resp  Response
	calls int
}

func (f *fixed) Complete(context.Context, Request) (Response, error) {
	f.calls++
	return f.resp, nil
}
