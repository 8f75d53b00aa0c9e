package prose

import (
	"strings"
	"unicode"
)

// VowelGroups estimates the syllables of one word by vowel groups, for the
// words the pronouncing dictionary lacks (see Dictionary.Syllables), and
// alone with a nil *Dictionary, as the project counted before:
//
//   - each maximal run of vowels (a, e, i, o, u, y) is one syllable;
//   - a final silent "e" is not ("make"), but a final consonant + "le" is
//     ("table");
//   - a final "ed" after a letter other than "t" or "d" is silent
//     ("jumped", but "wanted");
//   - a final "es" after a letter other than "s", "x", "z", "c", "g" or a
//     sibilant digraph is silent ("makes", but "boxes");
//   - every word has at least one syllable; a word without letters (a
//     number) counts one syllable.
//
// The heuristic is exact on most common words and off by one on some: it
// undercounts hiatus ("bias", "science", "poem", "create") and overcounts
// a silent "e" inside a compound ("framework", "statement").
func VowelGroups(word string) int {
	w := lettersOnly(word)
	if w == "" {
		return 1
	}
	n := vowelGroups(w)
	n -= silentEnding(w)
	return max(n, 1)
}

func lettersOnly(word string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(word) {
		if unicode.IsLetter(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isVowel(b byte) bool { return strings.IndexByte("aeiouy", b) >= 0 }

func vowelGroups(w string) int {
	n, prev := 0, false
	for i := range len(w) {
		v := isVowel(w[i])
		if v && !prev {
			n++
		}
		prev = v
	}
	return n
}

// silentEnding returns 1 when w ends in a letter group that the vowel
// count took for a syllable but that is not pronounced as one.
func silentEnding(w string) int {
	l := len(w)
	if l < 3 {
		return 0
	}
	before := w[l-2]
	switch {
	case strings.HasSuffix(w, "le") && !isVowel(w[l-3]):
		return 0
	case strings.HasSuffix(w, "e") && !isVowel(before) && vowelGroups(w[:l-1]) > 0:
		return 1
	case strings.HasSuffix(w, "ed") && !isVowel(w[l-3]) && w[l-3] != 't' && w[l-3] != 'd':
		return 1
	case strings.HasSuffix(w, "es") && !isVowel(w[l-3]) && !sibilant(w[:l-2]):
		return 1
	}
	return 0
}

func sibilant(stem string) bool {
	for _, s := range []string{"s", "x", "z", "c", "g", "sh", "ch"} {
		if strings.HasSuffix(stem, s) {
			return true
		}
	}
	return false
}
