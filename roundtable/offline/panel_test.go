package offline_test

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/offline"
	"github.com/roundtable-ai/roundtable/roundtable/panel"
)

// Every message restates the judge's model, made from its role, and cites
// a passage of the item's document; the cited sentence leaves the
// sentiment of the judge's own opinion sentence (the first) unchanged.
func TestEvaluatorsRestateTheirModelAndCiteTheDocuments(t *testing.T) {
	pr := roundtable.Panel(roundtable.PresetOptions{Items: []string{"Ann"}, Tolerance: 1e-3})
	passages := []string{"Ann cut the team's cloud budget by a third.", "Ann mentors two engineers.", "Ann likes hiking."}
	ev := &offline.Evaluator{Vader: sentiment.NewVader(), Passages: map[string][]string{"Ann": passages}}
	s := play(t, pr, 4, []string{"", ""}, ev)
	v := sentiment.NewVader()
	for _, r := range s.Rounds {
		for _, m := range r.Messages {
			if m.Self == nil || m.Self.Source != panel.SourceVocabulary || len(m.Self.Criteria) != 3 {
				t.Fatalf("round %d: %s's model %+v", r.Round, m.From, m.Self)
			}
			if !strings.Contains(m.Text, " On Ann's ") || !containsAny(m.Text, passages) {
				t.Errorf("round %d: %q cites no passage", r.Round, m.Text)
			}
		}
		for _, a := range r.Surveys {
			if r.Round == 1 && a.Values[0] != v.Polarity(firstSentence(messageOf(r, a.By))).Compound {
				t.Errorf("%s: report %v is not the sentiment of its opinion sentence", a.By, a.Values)
			}
		}
	}
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

func messageOf(r roundtable.RoundRecord, id string) string {
	for _, m := range r.Messages {
		if m.From == id {
			return m.Text
		}
	}
	return ""
}
