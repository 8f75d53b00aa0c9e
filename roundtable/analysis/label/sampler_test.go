package label_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
)

var levels = []string{"strongly agree (statement)", "slightly agree (statement)", "neutral",
	"slightly agree (complement)", "strongly agree (complement)"}

func signalQuestion() label.Question {
	return label.Question{Name: "stance_signal", Instruction: "Which stance does the text take?", Text: "I think so.", Labels: levels}
}

func TestSamplerMajorityWins(t *testing.T) {
	s := &script{all: 5, first: concat(repeat(levels[1], 6), repeat(levels[2], 3), repeat(levels[4], 1))}
	srv := newServer(t, s.handle)
	v, err := (&label.Sampler{LLM: client(srv, "m"), Endpoint: "m"}).Label(t.Context(), signalQuestion())
	if err != nil {
		t.Fatal(err)
	}
	if v.Label() != levels[1] || len(v.Samples) != 10 || srv.Count(nil) != 10 {
		t.Fatalf("label %q, %d samples, %d requests; want %q, 10, 10", v.Label(), len(v.Samples), srv.Count(nil), levels[1])
	}
	if got := fmt.Sprint(v.Votes()); got != fmt.Sprint(label.Tally{levels[1]: 6, levels[2]: 3, levels[4]: 1}) {
		t.Fatalf("votes %s", got)
	}
}

// The fake disagrees with itself 5 to 5; the re-ask offers only the two
// tied labels and settles 7 to 3. Every sample of both asks is kept.
func TestSamplerTieIsReaskedWithTiedLabels(t *testing.T) {
	s := &script{all: 5, first: concat(repeat(levels[0], 5), repeat(levels[3], 5)),
		reask: concat(repeat(levels[3], 7), repeat(levels[0], 3))}
	srv := newServer(t, s.handle)
	v, err := (&label.Sampler{LLM: client(srv, "m"), Endpoint: "m", K: 10}).Label(t.Context(), signalQuestion())
	if err != nil {
		t.Fatal(err)
	}
	if v.Label() != levels[3] {
		t.Fatalf("label %q, want %q", v.Label(), levels[3])
	}
	if len(v.Samples) != 20 || len(v.Rounds) != 2 || v.Rounds[1][levels[3]] != 7 {
		t.Fatalf("samples %d, rounds %v", len(v.Samples), v.Rounds)
	}
	reasks := srv.Count(func(r *openaitest.Request) bool { return len(enum(r)) == 2 })
	if reasks != 10 {
		t.Fatalf("%d re-asks offered exactly the two tied labels, want 10", reasks)
	}
	for _, r := range srv.Requests()[10:] {
		if e := enum(r); e[0] != levels[0] || e[1] != levels[3] {
			t.Fatalf("re-ask offered %q", e)
		}
	}
}

// A tie that survives every re-ask goes to the first tied label.
func TestSamplerPersistentTieTakesFirstLabel(t *testing.T) {
	s := &script{all: 2, first: []string{"no", "yes", "yes", "no", "no", "yes", "yes", "no"}}
	srv := newServer(t, s.handle)
	q := label.Question{Name: "presence", Text: "x", Labels: []string{"yes", "no"}}
	v, err := (&label.Sampler{LLM: client(srv, "m"), Endpoint: "m", K: 2}).Label(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	if v.Label() != "yes" || len(v.Rounds) != 4 || len(v.Samples) != 8 {
		t.Fatalf("label %q after %d asks (%d samples), want yes after 4 (8)", v.Label(), len(v.Rounds), len(v.Samples))
	}
}

func TestSamplerInvalidAnswersDoNotCount(t *testing.T) {
	s := &script{all: 2, first: []string{"yes", "maybe", "no", "yes"}}
	srv := newServer(t, s.handle)
	q := label.Question{Name: "presence", Text: "x", Labels: []string{"yes", "no"}}
	v, err := (&label.Sampler{LLM: client(srv, "m"), Endpoint: "m", K: 4}).Label(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, s := range v.Samples {
		if s.Error != "" {
			bad++
			if !strings.Contains(s.Error, `"maybe" is not one of yes, no`) {
				t.Fatalf("sample error %q", s.Error)
			}
		}
	}
	if v.Label() != "yes" || bad != 1 || len(v.Samples) != 4 {
		t.Fatalf("label %q with %d bad of %d samples", v.Label(), bad, len(v.Samples))
	}
}

func TestSamplerModelDownFailsNamingEndpoint(t *testing.T) {
	srv := newServer(t, func(_ contextT, _ *openaitest.Request) openaitest.Reply {
		return openaitest.Status(404, "model not found")
	})
	_, err := (&label.Sampler{LLM: client(srv, "judge"), Endpoint: "judge", K: 3}).Label(t.Context(), signalQuestion())
	if err == nil || !strings.Contains(err.Error(), "judge") {
		t.Fatalf("error %v, want one naming the endpoint", err)
	}
}

// Multi-label: a label wins with more than half of the answers; one named
// by exactly half is re-asked; none winning gives the fallback.
func TestSamplerMultiLabelMajorityAndFallback(t *testing.T) {
	acts := []string{"Inform", "Propose", "Accept", "Others"}
	tests := []struct {
		name           string
		first, reask   [][]string
		want           string
		wantReaskEnums int
	}{
		{"majority per label", [][]string{{"Inform", "Propose"}, {"Inform"}, {"Inform", "Accept"}, {"Accept", "Inform"}, {"Others"}}, nil, "[Inform]", 0},
		{"half is re-asked", [][]string{{"Inform", "Propose"}, {"Inform"}, {"Propose", "Inform"}, {"Inform"}},
			[][]string{{"Propose"}, {"Propose"}, {"Propose"}, {"none of these"}}, "[Inform Propose]", 4},
		{"a re-asked label can lose", [][]string{{"Inform", "Propose"}, {"Inform"}, {"Propose", "Inform"}, {"Inform"}},
			[][]string{{"none of these"}, {"Propose"}, {"none of these"}, {"none of these"}}, "[Inform]", 4},
		{"none wins", [][]string{{"Inform"}, {"Propose"}, {"Accept"}, {"Others"}, {"Inform"}}, nil, "[Others]", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			first, reask := tt.first, tt.reask
			srv := newServer(t, func(_ contextT, r *openaitest.Request) openaitest.Reply {
				mu.Lock()
				defer mu.Unlock()
				q := &first
				if len(enum(r)) < len(acts) {
					q = &reask
				}
				if len(*q) == 0 {
					return openaitest.Status(500, "script exhausted")
				}
				ans := (*q)[0]
				*q = (*q)[1:]
				return openaitest.JSON(map[string]any{"reasoning": "r", "labels": ans})
			})
			q := label.Question{Name: "dialogue_acts", Text: "x", Labels: acts, Multi: true, Fallback: "Others"}
			v, err := (&label.Sampler{LLM: client(srv, "m"), Endpoint: "m", K: len(tt.first)}).Label(t.Context(), q)
			if err != nil || fmt.Sprint(v.Labels) != tt.want {
				t.Fatalf("labels %v, %v; want %s", v.Labels, err, tt.want)
			}
			isReask := func(r *openaitest.Request) bool { return fmt.Sprint(enum(r)) == "[Propose none of these]" }
			if n := srv.Count(isReask); n != tt.wantReaskEnums {
				t.Fatalf("%d re-asks offering only the tied label or none, want %d", n, tt.wantReaskEnums)
			}
		})
	}
}
