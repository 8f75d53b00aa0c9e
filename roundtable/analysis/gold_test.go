package analysis_test

import (
	"math"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
)

// Four texts, gold yes yes no no, labelled yes no no no: accuracy 3/4;
// p_o = .75, p_e = .5·.25 + .5·.75 = .5, kappa (.75 − .5)/(1 − .5) = .5.
// A stance result without an opinion reads as "no opinion".
func TestGoldScoreHandComputed(t *testing.T) {
	var s analysis.GoldScore
	for i, got := range []string{"yes", "no", "no", "no"} {
		s.Add([]string{[]string{"yes", "yes", "no", "no"}[i]}, []string{got})
	}
	if s.Accuracy() != 0.75 || math.Abs(s.Kappa()-0.5) > 1e-12 {
		t.Errorf("accuracy %v kappa %v, want .75 and .5", s.Accuracy(), s.Kappa())
	}
	if l, ok := analysis.LabelsOf(analysis.StanceResult{Presence: false, Label: "neutral"}); !ok || l[0] != analysis.NoOpinion {
		t.Errorf("no opinion: %v", l)
	}
	if l, _ := analysis.LabelsOf(analysis.SentimentResult{Score: 0.3}); l[0] != "positive" {
		t.Errorf("S_O 0.3 reads as %v, want positive", l)
	}
	if _, err := analysis.ReadGold(strings.NewReader("{\"id\":1,\"label\":\"a\"}\n{\"id\":1,\"label\":\"b\"}\n"), "g"); roundtable.ErrorCode(err) != roundtable.Invalid || !strings.Contains(err.Error(), "g:2") {
		t.Errorf("an id given twice: %v", err)
	}
}
