package stance_test

import (
	"context"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
)

// The persona signal asks the opinion signal agent only when the
// presence agent finds an opinion (the paper's section 3.2); the offline
// signal is the lexicon's reading.
func TestSignalAsksTheSignalAgentOnlyForAnOpinion(t *testing.T) {
	srv := openaitest.NewServer(func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		ans := "slightly agree (complement)"
		if r.SchemaName == "opinion_presence" {
			ans = map[bool]string{true: "yes", false: "no"}[strings.Contains(r.LastUser(), "doubts")]
		}
		return openaitest.JSON(map[string]string{"reasoning": "scripted", "label": ans})
	})
	defer srv.Close()
	sig := stance.Signal{Labeler: &label.Sampler{LLM: openai.New(openai.Config{BaseURL: srv.URL(), Model: "fake"}), Endpoint: "fake", K: 3}}
	if l, present, err := sig.Signal(t.Context(), "Taxes should rise.", "", "Nice weather today."); err != nil || present || l != 0 {
		t.Fatalf("no opinion: %d %v %v", l, present, err)
	}
	if n := srv.Count(openaitest.Schema("opinion_signal")); n != 0 {
		t.Fatalf("the signal agent was asked %d times about a message without an opinion", n)
	}
	if l, present, err := sig.Signal(t.Context(), "Taxes should rise.", "", "I have my doubts."); err != nil || !present || l != -1 {
		t.Fatalf("an opinion: %d %v %v, want -1", l, present, err)
	}
	if n := srv.Count(openaitest.Schema("opinion_signal")); n != 3 {
		t.Fatalf("the signal agent was asked %d times, want 3 samples", n)
	}
	if sig.Model() != "fake" || (stance.Signal{}).Model() != stance.LexiconModel {
		t.Fatalf("models %q %q", sig.Model(), stance.Signal{}.Model())
	}
	if l, present, err := (stance.Signal{}).Signal(t.Context(), "", "", "I firmly reject the claim."); err != nil || !present || l != -2 {
		t.Fatalf("lexicon: %d %v %v", l, present, err)
	}
}
