package stance

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
)

// LexiconModel is the model name of the offline classifier in
// annotations and reports.
const LexiconModel = "keyword-lexicon (offline)"

// Lexicon is the offline stance classifier: cue phrases of agreement and
// disagreement, one set per level. It reads stance words, not the
// statement, so it is a rough instrument, named as such wherever it is
// used: opinion presence is whether any cue occurs, and the signal is the
// level with the most cues (a tie goes to the weaker level, then to
// neutral). The zero value is ready to use.
type Lexicon struct{}

// cues are lower-case phrases per level; longer phrases are matched
// first, and a matched span is not matched again.
var cues = map[Level][]string{
	StronglyStatement: {"convinced", "no doubt", "without doubt", "absolutely", "certainly true", "definitely true", "strongly agree",
		"completely agree", "fully agree", "undeniable", "i am certain it is true", "there is no question"},
	SlightlyStatement: {"lean toward", "lean towards", "mostly agree", "somewhat agree", "tend to agree", "slightly agree", "probably true",
		"on balance i agree", "i agree", "inclined to agree"},
	Neutral: {"both sides", "no settled view", "undecided", "not sure", "neutral", "on the fence", "no strong opinion", "hard to say"},
	SlightlyComplement: {"have my doubts", "lean against", "somewhat disagree", "tend to disagree", "slightly disagree", "skeptical",
		"sceptical", "probably not", "i disagree", "not convinced", "doubtful"},
	StronglyComplement: {"firmly reject", "certain it is wrong", "strongly disagree", "completely disagree", "completely false", "nonsense",
		"absolutely not", "definitely not", "totally wrong", "reject the claim", "a hoax"},
}

// cueRE matches every cue, longest first, on word boundaries.
var cueRE, cueLevel = compileCues()

func compileCues() (*regexp.Regexp, map[string]Level) {
	level := map[string]Level{}
	var all []string
	for l, ps := range cues {
		for _, p := range ps {
			level[p] = l
			all = append(all, p)
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if len(all[i]) != len(all[j]) {
			return len(all[i]) > len(all[j])
		}
		return all[i] < all[j]
	})
	for i, p := range all {
		all[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(`\b(?:` + strings.Join(all, "|") + `)\b`), level
}

// Model names the classifier.
func (Lexicon) Model() string { return LexiconModel }

// Classify implements the classifier on text. It never fails.
func (Lexicon) Classify(_ context.Context, text string) (Result, error) {
	counts := map[Level]int{}
	votes := label.Tally{}
	for _, m := range cueRE.FindAllString(strings.ToLower(text), -1) {
		l := cueLevel[m]
		counts[l]++
		votes[l.Label()]++
	}
	r := Result{Presence: len(votes) > 0, Level: Neutral, Votes: votes}
	best := 0
	for _, l := range []Level{Neutral, SlightlyStatement, SlightlyComplement, StronglyStatement, StronglyComplement} {
		if counts[l] > best {
			r.Level, best = l, counts[l]
		}
	}
	r.Label = r.Level.Label()
	return r, nil
}

// Version is the version of the cue phrases (label.DataVersion).
func (Lexicon) Version() string {
	var lines []string
	for l := StronglyComplement; l <= StronglyStatement; l++ {
		lines = append(lines, fmt.Sprintf("%d\t%s", l, strings.Join(cues[l], "|")))
	}
	return label.DataVersion(lines...)
}
