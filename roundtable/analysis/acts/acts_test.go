package acts_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
)

func TestCueTagger(t *testing.T) {
	tests := map[string]string{
		"I propose we split the apples evenly.":                 "[Propose]",
		"I agree, that sounds good.":                            "[Evaluate Accept]",
		"Could you explain why?":                                "[Request]",
		"To sum up, we have agreed on the first plan.":          "[Summarize Accept]",
		"I disagree; as I said, the cost is too high.":          "[Evaluate Defend Decline]",
		"Let's meet halfway as a compromise.":                   "[Propose Compromise]",
		"The weather is nice today":                             "[Others]",
		"Goodness knows.":                                       "[Others]", // "good" only as a whole word
		"In fact there are three apples and two pears in stock": "[Inform]",
	}
	for text, want := range tests {
		r, err := acts.CueTagger{}.Tag(t.Context(), text, nil)
		if err != nil || fmt.Sprint(r.Acts) != want {
			t.Errorf("Tag(%q) = %v, %v; want %s", text, r.Acts, err, want)
		}
	}
}

// The model is asked k times; an act wins when most answers name it. The
// previous round reaches the prompt.
func TestModelMajorityOfSamples(t *testing.T) {
	answers := [][]string{{"Propose", "Evaluate"}, {"Propose"}, {"Propose", "Inform"}, {"Evaluate", "Propose"}, {"Propose"}}
	var mu sync.Mutex
	i := 0
	srv := openaitest.NewServer(func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		mu.Lock()
		defer mu.Unlock()
		a := answers[i%len(answers)]
		i++
		return openaitest.JSON(map[string]any{"reasoning": "r", "labels": a})
	})
	defer srv.Close()
	m := acts.Model{Labeler: &label.Sampler{LLM: openai.New(openai.Config{BaseURL: srv.URL(), Model: "fake"}), Endpoint: "fake", K: 5}}
	r, err := m.Tag(t.Context(), "We should take the first plan; it is fair.", []string{"Ann: what do we do?"})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(r.Acts) != "[Propose]" || len(r.Verdict.Samples) != 5 {
		t.Fatalf("acts %v with %d samples, want [Propose] with 5", r.Acts, len(r.Verdict.Samples))
	}
	if u := srv.Requests()[0].LastUser(); !strings.Contains(u, "Messages of the previous round:\n- Ann: what do we do?") {
		t.Fatalf("previous round missing from the prompt: %q", u)
	}
}
