package label_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
)

// persona is how a fake endpoint negotiates. As a generator it answers
// own, or, if pliable, takes up the label of a critique; as a
// discriminator it agrees when the generator said own, or always if
// agreeable.
type persona struct {
	own                            string
	pliable, agreeable, contrarian bool
}

func (p persona) handle(_ contextT, r *openaitest.Request) openaitest.Reply {
	if strings.HasSuffix(r.SchemaName, "_judgement") {
		other := between(r.LastUser(), "Another annotator answered ", ", reasoning")
		agree := !p.contrarian && (p.agreeable || other == p.own)
		return openaitest.JSON(map[string]any{"agree": agree, "explanation": "I read it as " + p.own, "label": p.own})
	}
	ans := p.own
	if p.pliable && len(r.Messages) > 2 {
		ans = between(r.LastUser(), "Their labels: ", ". Their reasons")
	}
	return openaitest.JSON(map[string]any{"reasoning": "it reads as " + ans, "label": ans})
}

func endpoints(t *testing.T, ps ...persona) ([]label.Endpoint, []*openaitest.Server) {
	var eps []label.Endpoint
	var srvs []*openaitest.Server
	for i, p := range ps {
		srv := newServer(t, p.handle)
		name := string(rune('A' + i))
		eps = append(eps, label.Endpoint{Name: name, LLM: client(srv, name)})
		srvs = append(srvs, srv)
	}
	return eps, srvs
}

var yesNo = label.Question{Name: "presence", Instruction: "Does the text state an opinion?", Text: "Taxes should rise.", Labels: []string{"yes", "no"}}

func outcomes(v label.Verdict) string {
	var s []string
	for _, o := range v.Outcomes {
		s = append(s, fmt.Sprintf("%s>%s:%s/%v", o.Generator, o.Discriminator, strings.Join(o.Labels, ","), o.Agreed))
	}
	return strings.Join(s, " ")
}

func TestNegotiationOutcomes(t *testing.T) {
	stubbornYes, stubbornNo := persona{own: "yes"}, persona{own: "no"}
	tests := []struct {
		name     string
		ps       []persona
		want     string
		outcomes string
	}{
		{"both sessions agree on the same answer", []persona{stubbornYes, stubbornYes}, "yes",
			"A>B:yes/true B>A:yes/true"},
		{"one session reaches agreement", []persona{stubbornYes, {own: "no", pliable: true}}, "yes",
			"A>B:yes/false B>A:yes/true"},
		{"both disagree, a third decides by majority of six", []persona{stubbornYes, stubbornNo, stubbornYes}, "yes",
			"A>B:yes/false B>A:no/false C>A:yes/true A>C:yes/true C>B:yes/false B>C:no/false"},
		{"neither session agrees but both generators end on the same answer", []persona{{own: "yes", contrarian: true}, {own: "yes", contrarian: true}}, "yes",
			"A>B:yes/false B>A:yes/false"},
		{"both agree on different answers, a third decides", []persona{{own: "yes", agreeable: true}, {own: "no", agreeable: true}, stubbornNo}, "no",
			"A>B:yes/true B>A:no/true C>A:no/true A>C:yes/false C>B:no/true B>C:no/true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eps, _ := endpoints(t, tt.ps...)
			v, err := (&label.Negotiator{Endpoints: eps, MaxTurns: 2}).Label(t.Context(), yesNo)
			if err != nil {
				t.Fatal(err)
			}
			if v.Label() != tt.want || outcomes(v) != tt.outcomes {
				t.Fatalf("label %q, outcomes %s\nwant %q, %s", v.Label(), outcomes(v), tt.want, tt.outcomes)
			}
			for _, turn := range v.Turns {
				if turn.Endpoint == "" || turn.Session == 0 || len(turn.Labels) == 0 {
					t.Fatalf("incomplete turn %+v", turn)
				}
			}
		})
	}
}

// Two stubborn endpoints that differ and no third: no consensus, with
// every turn kept (2 sessions x 2 turns x generator+discriminator).
func TestNegotiationTwoEndpointsWithoutConsensus(t *testing.T) {
	eps, _ := endpoints(t, persona{own: "yes"}, persona{own: "no"})
	v, err := (&label.Negotiator{Endpoints: eps, MaxTurns: 2}).Label(t.Context(), yesNo)
	if !errors.Is(err, label.ErrNoConsensus) {
		t.Fatalf("error %v, want ErrNoConsensus", err)
	}
	if len(v.Turns) != 8 || len(v.Outcomes) != 2 {
		t.Fatalf("%d turns and %d outcomes kept, want 8 and 2", len(v.Turns), len(v.Outcomes))
	}
}

// A pliable generator takes up the critique on its second turn, which the
// discriminator then accepts: the critique reached it through the prompt.
func TestNegotiationCritiqueReachesGenerator(t *testing.T) {
	eps, srvs := endpoints(t, persona{own: "no", pliable: true}, persona{own: "yes"})
	v, err := (&label.Negotiator{Endpoints: eps, MaxTurns: 3}).Label(t.Context(), yesNo)
	if err != nil || v.Label() != "yes" {
		t.Fatalf("label %q, %v", v.Label(), err)
	}
	second := srvs[0].Requests()[1]
	if !strings.Contains(second.LastUser(), "Their labels: yes. Their reasons: I read it as yes") {
		t.Fatalf("second generator request lacks the critique: %q", second.LastUser())
	}
}

func TestNegotiationModelDownNamesEndpoint(t *testing.T) {
	eps, _ := endpoints(t, persona{own: "yes"})
	down := newServer(t, func(_ contextT, _ *openaitest.Request) openaitest.Reply { return openaitest.Status(401, "bad key") })
	eps = append(eps, label.Endpoint{Name: "down", LLM: client(down, "down")})
	_, err := (&label.Negotiator{Endpoints: eps}).Label(t.Context(), yesNo)
	if err == nil || !strings.Contains(err.Error(), "discriminator down") {
		t.Fatalf("error %v, want one naming the discriminator", err)
	}
}

// Demonstrations: the nearest labelled example reaches the prompt as the
// LLM negotiation paper's triplet: each model is asked once for its own
// reasoning chain of the example (shown to it as generator), and once for
// its explanation of why the labels are right (shown to it as
// discriminator), however many sessions it takes part in. Plain shows
// text and labels and asks nothing more.
func TestNegotiationUsesNearestDemonstrationsWithReasoningChains(t *testing.T) {
	set := []label.Demo{{Text: "Bananas are yellow fruit.", Labels: []string{"no"}}, {Text: "Taxes on the rich should rise.", Labels: []string{"yes"}}}
	eps, srvs := endpoints(t, persona{own: "yes"}, persona{own: "yes"})
	if _, err := (&label.Negotiator{Endpoints: eps, Demos: &label.Demonstrations{K: 1, Set: set}}).Label(t.Context(), yesNo); err != nil {
		t.Fatal(err)
	}
	for i, srv := range srvs {
		if n := srv.Count(openaitest.Schema("demonstration_reasoning")); n != 2 {
			t.Errorf("endpoint %d was asked about the demonstration %d times, want twice (a chain and an explanation)", i, n)
		}
		for _, r := range srv.Requests() {
			sys := r.System()
			switch r.SchemaName {
			case "presence":
				if !strings.Contains(sys, "Text: Taxes on the rich should rise.\nReasoning: it reads as yes\nLabels: yes") || strings.Contains(sys, "Bananas") {
					t.Errorf("a generator's prompt does not show just the nearest example with its chain:\n%s", sys)
				}
			case "presence_judgement":
				if !strings.Contains(sys, "A second annotator agrees: it reads as yes") {
					t.Errorf("a discriminator's prompt lacks its explanation of the example:\n%s", sys)
				}
			}
		}
	}
	eps, srvs = endpoints(t, persona{own: "yes"}, persona{own: "yes"})
	if _, err := (&label.Negotiator{Endpoints: eps, Demos: &label.Demonstrations{K: 1, Set: set, Plain: true}}).Label(t.Context(), yesNo); err != nil {
		t.Fatal(err)
	}
	if sys := srvs[0].Requests()[0].System(); !strings.Contains(sys, "Text: Taxes on the rich should rise.\nLabels: yes") || srvs[0].Count(openaitest.Schema("demonstration_reasoning")) != 0 {
		t.Errorf("plain demonstrations:\n%s", sys)
	}
}

// An unusable answer is re-asked once with the error; a second one ends
// the negotiation naming the endpoint and both errors.
func TestNegotiationReasksAnUnusableAnswerOnce(t *testing.T) {
	flaky := func(bad int) openaitest.Handler {
		n := 0
		return func(ctx contextT, r *openaitest.Request) openaitest.Reply {
			if n++; n <= bad {
				return openaitest.Content("I think yes")
			}
			return persona{own: "yes"}.handle(ctx, r)
		}
	}
	a, b := newServer(t, flaky(1)), newServer(t, persona{own: "yes"}.handle)
	eps := []label.Endpoint{{Name: "A", LLM: client(a, "A")}, {Name: "B", LLM: client(b, "B")}}
	v, err := (&label.Negotiator{Endpoints: eps}).Label(t.Context(), yesNo)
	if err != nil || v.Label() != "yes" {
		t.Fatalf("label %q, %v", v.Label(), err)
	}
	if re := a.Requests()[1]; !re.Repair() || !strings.Contains(re.LastUser(), "contains no JSON object") {
		t.Fatalf("the re-ask does not carry the error: %q", re.LastUser())
	}
	a2 := newServer(t, flaky(2))
	eps[0].LLM = client(a2, "A")
	_, err = (&label.Negotiator{Endpoints: eps}).Label(t.Context(), yesNo)
	if err == nil || !strings.Contains(err.Error(), "generator A") || !strings.Contains(err.Error(), "before the re-ask") {
		t.Fatalf("error %v", err)
	}
}
