package stance_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
)

// disagreeing scripts a model that is of two minds: presence 6 yes to 4
// no; signal 5 "slightly agree (statement)" to 5 "neutral", and on the
// re-ask, which offers only those two, 6 to 4 for "neutral".
func disagreeing() openaitest.Handler {
	var mu sync.Mutex
	n := map[string]int{}
	return func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		mu.Lock()
		defer mu.Unlock()
		key := r.SchemaName
		if r.SchemaName == "opinion_signal" && !strings.Contains(string(r.Schema), "strongly") {
			key = "reask"
		}
		i := n[key]
		n[key]++
		var ans string
		switch key {
		case "opinion_presence":
			ans = map[bool]string{true: "yes", false: "no"}[i < 6]
		case "opinion_signal":
			ans = map[bool]string{true: "slightly agree (statement)", false: "neutral"}[i%2 == 0]
		case "reask":
			ans = map[bool]string{true: "neutral", false: "slightly agree (statement)"}[i < 6]
		}
		return openaitest.JSON(map[string]string{"reasoning": "scripted", "label": ans})
	}
}

func TestClassifyAgainstDisagreeingFake(t *testing.T) {
	srv := openaitest.NewServer(disagreeing())
	defer srv.Close()
	c := stance.Classifier{Statement: "Taxes on the rich should rise.",
		Labeler: &label.Sampler{LLM: openai.New(openai.Config{BaseURL: srv.URL(), Model: "fake"}), Endpoint: "fake"}}
	r, err := c.Classify(t.Context(), "Maybe a little higher, I suppose.")
	if err != nil {
		t.Fatal(err)
	}
	if !r.Presence || r.Label != "neutral" || r.Level != stance.Neutral {
		t.Fatalf("result %+v, want presence and neutral", r)
	}
	if r.Votes["slightly agree (statement)"] != 5 || r.Votes["neutral"] != 5 {
		t.Fatalf("first-ask votes %v, want 5 and 5", r.Votes)
	}
	if p, s := len(r.Verdicts.Presence.Samples), len(r.Verdicts.Signal.Samples); p != 10 || s != 20 {
		t.Fatalf("kept %d presence and %d signal samples, want 10 and 20", p, s)
	}
	if n := srv.Count(nil); n != 30 {
		t.Fatalf("%d requests, want 30 (10 presence, 10 signal, 10 re-ask)", n)
	}
	if !strings.Contains(srv.Requests()[0].System(), "The opposite of: Taxes on the rich should rise.") {
		t.Fatalf("no complement in the prompt: %s", srv.Requests()[0].System())
	}
}

func TestLevels(t *testing.T) {
	for l := stance.StronglyComplement; l <= stance.StronglyStatement; l++ {
		back, err := stance.ParseLevel(l.Label())
		if err != nil || back != l {
			t.Fatalf("level %d → %q → %d, %v", l, l.Label(), back, err)
		}
	}
	if stance.StronglyStatement.Label() != "strongly agree (statement)" || stance.SlightlyComplement.Label() != "slightly agree (complement)" {
		t.Fatal("labels are not in docs/protocol.md's order")
	}
}

func TestUnwarranted(t *testing.T) {
	if stance.Unwarranted(stance.SlightlyStatement, stance.SlightlyStatement) || !stance.Unwarranted(stance.SlightlyStatement, stance.Neutral) {
		t.Fatal("an unwarranted change is exactly a differing stance")
	}
}
