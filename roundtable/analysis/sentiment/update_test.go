package sentiment_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
)

// Hand computation, alpha 0.5: S_O = 0.8, -0.4, 0.2, 0.2
//
//	S(1) = 0.8                        (first statement sets it)
//	S(2) = 0.5*-0.4 + 0.5*0.8  = 0.2   dS = 0.6
//	S(3) = 0.5*0.2  + 0.5*0.2  = 0.2   dS = 0
//	S(4) = 0.2                        dS = 0
func TestTrajectoryHandComputed(t *testing.T) {
	var tr sentiment.Trajectory
	for _, so := range []float64{0.8, -0.4, 0.2, 0.2} {
		tr.Observe("ann", so)
	}
	want := []sentiment.Point{{S: 0.8}, {S: 0.2, Delta: 0.6}, {S: 0.2}, {S: 0.2}}
	got := tr.Points("ann")
	for i := range want {
		if math.Abs(got[i].S-want[i].S) > 1e-12 || (i > 0 && math.Abs(got[i].Delta-want[i].Delta) > 1e-12) {
			t.Fatalf("point %d = %+v, want %+v", i+1, got[i], want[i])
		}
	}
	if !math.IsNaN(got[0].Delta) {
		t.Fatalf("first point has a change %v", got[0].Delta)
	}
}

// alpha 0.25: S = 1, then 0.25*0 + 0.75*1 = 0.75 (dS 0.25), then
// 0.25*0.75 + 0.75*0.75 = 0.75 (dS 0).
func TestTrajectoryAlpha(t *testing.T) {
	tr := sentiment.Trajectory{Alpha: 0.25}
	tr.Observe("a", 1)
	if p := tr.Observe("a", 0); p.S != 0.75 || p.Delta != 0.25 {
		t.Fatalf("got %+v, want S 0.75 dS 0.25", p)
	}
}

func TestStopRule(t *testing.T) {
	var tr sentiment.Trajectory
	tr.Observe("a", 0.5)
	tr.Observe("b", 0.1)
	if tr.Stopped() {
		t.Fatal("stopped before anyone moved")
	}
	tr.Observe("a", 0.5) // dS 0
	if tr.Stopped() {
		t.Fatal("stopped while b has not moved")
	}
	tr.Observe("b", 0.1+4e-5) // S = 0.1+2e-5, dS 2e-5 >= 1e-5
	if tr.Stopped() {
		t.Fatal("stopped with dS 2e-5 above the tolerance 1e-5")
	}
	tr.Observe("b", 0.1+2e-5) // dS 0
	if !tr.Stopped() {
		t.Fatal("did not stop with every dS below the tolerance")
	}
}

func TestArgumentsSplitAtContrast(t *testing.T) {
	sp, err := prose.NewSplitter()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"The plan is good, but the cost is high. However, it is fair. I like it although it is late.",
			[]string{"The plan is good", "the cost is high.", "it is fair.", "I like it", "it is late."}},
		// A leading subordinator splits at the clause comma.
		{"Although the price is high, the quality is excellent.", []string{"the price is high", "the quality is excellent."}},
		{"Though slow, it works.", []string{"slow", "it works."}},
		{"Even though Ann is new, she leads well.", []string{"Ann is new", "she leads well."}},
		{"While I like the idea, the cost worries me.", []string{"I like the idea", "the cost worries me."}},
		{"Whereas Ann is careful, Ben is fast.", []string{"Ann is careful", "Ben is fast."}},
		{`"Although it rained, we won," she said.`, []string{"it rained", `we won," she said.`}},
		// Inside a sentence.
		{"It works well even though it is slow.", []string{"It works well", "it is slow."}},
		{"Ann is careful whereas Ben is fast.", []string{"Ann is careful", "Ben is fast."}},
		{"Ann is experienced; however, she lacks cloud skills.", []string{"Ann is experienced", "she lacks cloud skills."}},
		{"The first plan is fine, however, the second is not.", []string{"The first plan is fine", "the second is not."}},
		{"Ann is experienced, yet she lacks cloud skills.", []string{"Ann is experienced", "she lacks cloud skills."}},
		{"It is cheap, and yet it lasts.", []string{"It is cheap", "it lasts."}},
		{"Ann is cheap, while Ben is costly.", []string{"Ann is cheap", "Ben is costly."}},
		{"Yet the cost is high.", []string{"the cost is high."}},
		// Not contrastive: one argument.
		{"The plan, however, costs more.", []string{"The plan, however, costs more."}},
		{"We have not decided yet.", []string{"We have not decided yet."}},
		{"She reads while he cooks.", []string{"She reads while he cooks."}},
		{"He acted as though nothing happened.", []string{"He acted as though nothing happened."}},
		{"She is not only fast but also careful.", []string{"She is not only fast but also careful."}},
		// A trailing "though" leaves no second argument.
		{"It is good, though.", []string{"It is good"}},
		// Nested: the main clause splits again.
		{"Although Ann is new, she is careful but slow.", []string{"Ann is new", "she is careful", "slow."}},
	} {
		if got := sentiment.Arguments(sp, tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Arguments(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestOpinionIsMeanOfArguments(t *testing.T) {
	sp, err := prose.NewSplitter()
	if err != nil {
		t.Fatal(err)
	}
	v := sentiment.NewVader()
	a := sentiment.Analyzer{Split: sp, Scorer: v}
	op, err := a.Opinion(t.Context(), "The book was good. The book was only kind of good.")
	if err != nil {
		t.Fatal(err)
	}
	want := (0.4404 + 0.3832) / 2
	if len(op.Arguments) != 2 || math.Abs(op.Score-want) > 1e-3 {
		t.Fatalf("opinion %+v, want 2 arguments with mean %.4f", op, want)
	}
}

// The LLM scorer maps the model's majority level to the scale.
func TestLLMScorerThroughFake(t *testing.T) {
	srv := openaitest.NewServer(func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		return openaitest.JSON(map[string]string{"reasoning": "r", "label": "positive"})
	})
	defer srv.Close()
	sp, err := prose.NewSplitter()
	if err != nil {
		t.Fatal(err)
	}
	llm := sentiment.LLM{Labeler: &label.Sampler{LLM: openai.New(openai.Config{BaseURL: srv.URL(), Model: "fake"}), Endpoint: "fake", K: 3}}
	op, err := sentiment.Analyzer{Split: sp, Scorer: llm}.Opinion(t.Context(), "Good plan, but late.")
	if err != nil {
		t.Fatal(err)
	}
	if len(op.Arguments) != 2 || op.Score != 0.5 || len(op.Arguments[0].Verdict.Samples) != 3 {
		t.Fatalf("opinion %+v", op)
	}
}
