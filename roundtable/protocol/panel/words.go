package panel

import (
	"regexp"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
)

// stopWords are the function words and fillers that are never a topic.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all also am an and any are as at be because been
		before being below between both but by can could did do does doing down during each few for from further had has
		have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself
		no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that
		the their theirs them themselves then there these they this those through to too under until up very was we were
		what when where which while who whom why will with would you your yours yourself yourselves one two three four
		five item items candidate candidates think believe seems seem really also still much many well may might must
		shall say says said see seen make makes made get gets got`) {
		m[w] = true
	}
	return m
}()

var digits = regexp.MustCompile(`^[0-9]+$`)

// keywords are the topic words of text, in order: its words (prose.Words)
// lower-cased, a final "'s" dropped and a plural "s" dropped from words of
// five letters or more not ending in "ss", leaving out numbers, words
// shorter than three letters, stop words, and words skip rejects (nil
// skips nothing).
func keywords(text string, skip func(string) bool) []string {
	var out []string
	for _, w := range prose.Words(text) {
		w = strings.ToLower(w)
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		if len(w) >= 5 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-1]
		}
		if len(w) < 3 || digits.MatchString(w) || stopWords[w] || (skip != nil && skip(w)) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// contentWords are the keywords of at least four letters, which the
// offline generator matches criteria on.
func contentWords(text string) []string {
	var out []string
	for _, w := range keywords(text, nil) {
		if len(w) >= 4 {
			out = append(out, w)
		}
	}
	return out
}
