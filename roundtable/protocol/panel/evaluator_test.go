package panel_test

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// Every message restates the judge's model, made from its role, and cites
// a passage of the item's document; the cited sentence leaves the
// sentiment of the judge's own opinion sentence (the first) unchanged.
func TestEvaluatorsRestateTheirModelAndCiteTheDocuments(t *testing.T) {
	pr := panel.Preset(protocol.Settings{Items: []string{"Ann"}, Tolerance: 1e-3})
	passages := []string{"Ann cut the team's cloud budget by a third.", "Ann mentors two engineers.", "Ann likes hiking."}
	ev := &panel.Evaluator{Vader: sentiment.NewVader(), Passages: map[string][]string{"Ann": passages}}
	s := roundtabletest.PlayStances(t, pr, 4, []string{"", ""}, ev)
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

func TestEvaluatorsConvergeOnSentiment(t *testing.T) {
	pr := panel.Preset(protocol.Settings{Items: []string{"Ann", "Ben", "Cy"}, Tolerance: 1e-3})
	ev := &panel.Evaluator{Vader: sentiment.NewVader()}
	s := roundtabletest.PlayStances(t, pr, 30, []string{"", "", ""}, ev)
	if s.EndReason != roundtable.EndConvergence {
		t.Fatalf("ended by %q after %d rounds", s.EndReason, len(s.Rounds))
	}
	v := sentiment.NewVader()
	r1 := s.Rounds[0]
	for _, a := range r1.Surveys {
		if len(a.Values) != 3 {
			t.Fatalf("%s reports %v", a.By, a.Values)
		}
		// In round 1 a judge reports S_O of its own statement on each item.
		var own string
		for _, m := range r1.Messages {
			if m.From == a.By {
				own = m.Text
			}
		}
		if got := v.Polarity(firstSentence(own)).Compound; got != a.Values[0] {
			t.Errorf("%s: reported %v for Ann, VADER reads %v in %q", a.By, a.Values[0], got, own)
		}
	}
}

func firstSentence(s string) string {
	for i, c := range s {
		if c == '.' {
			return s[:i+1]
		}
	}
	return s
}
