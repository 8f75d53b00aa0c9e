package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
)

// chatView is agent a's view of a chatroom's message phase in round n,
// a at stance 2 with the paper's persona, after history.
func chatView(n int, history ...roundtable.RoundRecord) roundtable.View {
	q := "Taxes on the rich should rise."
	self := roundtable.Participant{ID: "a", Name: "Ann", Kind: roundtable.Bot, Stance: "2",
		Background: opinion.ChatPersona{Name: "Ann", Statement: q, Level: 2}.Text()}
	brief := roundtable.Briefing{Persona: roundtable.PersonaStance, History: roundtable.HistoryChat, NoRule: true}
	return roundtable.View{Table: "t", Self: self, Participants: []roundtable.Participant{self, {ID: "b", Name: "Bo"}},
		Round: n, Rounds: 5, Phase: roundtable.PhaseMessage, Protocol: "chatroom", Scale: roundtable.StanceScale(q),
		Briefing: &brief, History: history, Current: roundtable.RoundRecord{Round: n}}
}

// A classifier that runs out of time keeps the persona: the message is
// still returned, its record names the failure, and the next prompt
// states the same level.
func TestPersonaStaysWhenTheSignalTimesOut(t *testing.T) {
	chat := openaitest.NewServer(func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		return openaitest.JSON(map[string]any{"to": []string{}, "text": "Honestly, I firmly reject the claim."})
	})
	defer chat.Close()
	hung := openaitest.NewServer(func(context.Context, *openaitest.Request) openaitest.Reply { return openaitest.Hang() })
	defer hung.Close()
	sig := stance.Signal{Labeler: &label.Sampler{LLM: openai.New(openai.Config{BaseURL: hung.URL(), Model: "judge"}), Endpoint: "judge"}}
	ag := agent.New(openai.New(openai.Config{BaseURL: chat.URL(), Model: "m"}), roundtable.TextTask{Topic: "taxes"}, agent.Options{Signal: sig})

	ctx, cancel := context.WithTimeout(t.Context(), time.Second) // the phase's deadline; the signal gets half
	defer cancel()
	act, err := ag.Act(ctx, chatView(1))
	if err != nil {
		t.Fatal(err)
	}
	say, ok := act.(roundtable.Say)
	if !ok {
		t.Fatalf("act %#v, want the message", act)
	}
	p := say.Persona
	if p == nil || p.Level != 2 || p.Signal == nil || p.Signal.Classifier != "judge" || p.Signal.Missing == "" || p.Next() != 2 {
		t.Fatalf("persona record %+v, want level 2 with a missing signal from judge", p)
	}
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	if hung.Count(openaitest.Schema("opinion_presence")) == 0 {
		t.Fatal("the presence agent was never asked")
	}

	done := roundtable.RoundRecord{Round: 1, Messages: []roundtable.Message{{Seq: 5, From: "a", Text: say.Text, Persona: p}}}
	if _, err := ag.Act(t.Context(), chatView(2, done)); err != nil {
		t.Fatal(err)
	}
	reqs := chat.Requests()
	last := reqs[len(reqs)-1]
	if want := `You strongly agree with the statement "Taxes on the rich should rise."`; !strings.Contains(last.System(), want) || !strings.Contains(last.LastUser(), want) {
		t.Fatalf("the prompt after a missing signal does not keep the persona:\n%s\n%s", last.System(), last.LastUser())
	}
}

// A message the signal reads at another level rewrites the persona of
// the next prompt at that level: the opinion, its elaboration and its
// example; the name and setting stay.
func TestPersonaIsRewrittenAtTheSignalLevel(t *testing.T) {
	chat := openaitest.NewServer(nil)
	defer chat.Close()
	ag := agent.New(openai.New(openai.Config{BaseURL: chat.URL(), Model: "m"}), roundtable.TextTask{Topic: "taxes"}, agent.Options{Signal: stance.Signal{}})
	moved := &roundtable.OpinionPersona{Level: 2, Text: "as before",
		Signal: &roundtable.OpinionSignal{Classifier: stance.LexiconModel, Present: true, Level: -1}}
	done := roundtable.RoundRecord{Round: 1, Messages: []roundtable.Message{{Seq: 5, From: "a", Text: "I have my doubts.", Persona: moved}}}
	act, err := ag.Act(t.Context(), chatView(2, done))
	if err != nil {
		t.Fatal(err)
	}
	reqs := chat.Requests()
	sys := reqs[len(reqs)-1].System()
	want := opinion.ChatPersona{Name: "Ann", Statement: "Taxes on the rich should rise.", Level: -1}.Text()
	if !strings.Contains(sys, want) || !strings.Contains(sys, "Stance: -1") || strings.Contains(sys, "You strongly agree") {
		t.Fatalf("the system prompt does not state the persona at -1:\n%s", sys)
	}
	if say, ok := act.(roundtable.Say); !ok || say.Persona == nil || say.Persona.Level != -1 || !strings.Contains(say.Persona.Text, want) {
		t.Fatalf("act %#v, want a message recording the persona at level -1", act)
	}
}
