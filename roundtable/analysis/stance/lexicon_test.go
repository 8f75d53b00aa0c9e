package stance_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
)

func TestLexiconReadsTheFiveLevels(t *testing.T) {
	cases := map[string]struct {
		level    stance.Level
		presence bool
	}{
		"I am convinced of it: taxes should rise.":                    {stance.StronglyStatement, true},
		"On balance I lean toward it.":                                {stance.SlightlyStatement, true},
		"I can see both sides of whether taxes should rise.":          {stance.Neutral, true},
		"I have my doubts that taxes should rise.":                    {stance.SlightlyComplement, true},
		"I firmly reject the claim that taxes should rise.":           {stance.StronglyComplement, true},
		"I am not convinced at all.":                                  {stance.SlightlyComplement, true}, // the longer cue wins
		"Absolutely not, and I strongly disagree with that nonsense.": {stance.StronglyComplement, true},
		"Lunch is at noon.":                                           {stance.Neutral, false},
	}
	for text, want := range cases {
		r, err := stance.Lexicon{}.Classify(t.Context(), text)
		if err != nil {
			t.Fatal(err)
		}
		if r.Level != want.level || r.Presence != want.presence || r.Label != want.level.Label() {
			t.Errorf("%q: level %d presence %v label %q; want %d, %v", text, r.Level, r.Presence, r.Label, want.level, want.presence)
		}
	}
	if (stance.Lexicon{}).Model() != stance.LexiconModel {
		t.Error("the lexicon does not name itself")
	}
}
