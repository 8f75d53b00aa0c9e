package prose

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

//go:generate go run ./internal/cmusource/gen -src testdata/cmu-pronouncing-dictionary-3.0.0.tgz -out dict/cmudict-syllables.tsv.gz

// dictFiles are the syllable counts of the CMU Pronouncing Dictionary and
// its licence, which travels with every binary that embeds it.
//
//go:embed dict/cmudict-syllables.tsv.gz dict/LICENSE
var dictFiles embed.FS

// Dictionary counts syllables with the CMU Pronouncing Dictionary
// (cmudict, through the npm package cmu-pronouncing-dictionary 3.0.0):
// the vowel phonemes of a word's first pronunciation. It is read-only and
// safe for concurrent use; a nil *Dictionary counts every word by
// VowelGroups.
type Dictionary struct {
	lines string  // "word\tcount\n" lines, sorted by word (bytewise)
	at    []int32 // the offset of each line
}

// Version is the version of the dictionary's syllable counts: the first
// 12 hex digits of a SHA-256 over its lines ("vowel-groups" for a nil
// dictionary, which counts by the heuristic alone).
func (d *Dictionary) Version() string {
	if d == nil {
		return "vowel-groups"
	}
	sum := sha256.Sum256([]byte(d.lines))
	return hex.EncodeToString(sum[:])[:12]
}

// LoadDictionary reads the embedded dictionary (126,046 words).
func LoadDictionary() (*Dictionary, error) {
	raw, err := dictFiles.ReadFile("dict/cmudict-syllables.tsv.gz")
	if err != nil {
		return nil, fmt.Errorf("load the pronouncing dictionary: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("load the pronouncing dictionary: %w", err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("load the pronouncing dictionary: %w", err)
	}
	d := &Dictionary{lines: string(text), at: make([]int32, 0, 130000)}
	prev := ""
	for off := 0; off < len(d.lines); {
		end := strings.IndexByte(d.lines[off:], '\n')
		if end < 0 {
			return nil, fmt.Errorf("the pronouncing dictionary ends without a newline")
		}
		line := d.lines[off : off+end]
		word, count, ok := strings.Cut(line, "\t")
		if _, err := strconv.ParseUint(count, 10, 8); !ok || err != nil || word <= prev {
			return nil, fmt.Errorf("the pronouncing dictionary, line %d: %q is not word<TAB>syllables in order", len(d.at)+1, line)
		}
		d.at = append(d.at, int32(off))
		prev, off = word, off+end+1
	}
	return d, nil
}

// Len is the number of words the dictionary holds.
func (d *Dictionary) Len() int {
	if d == nil {
		return 0
	}
	return len(d.at)
}

// entry is line i's word and syllable count.
func (d *Dictionary) entry(i int) (string, int) {
	line := d.lines[d.at[i]:]
	tab := strings.IndexByte(line, '\t')
	n := 0
	for _, c := range []byte(line[tab+1 : tab+strings.IndexByte(line[tab:], '\n')]) {
		n = 10*n + int(c-'0')
	}
	return line[:tab], n
}

// Lookup is the syllable count of an entry of the dictionary, as it is
// spelled there (lower case, straight apostrophes).
func (d *Dictionary) Lookup(entry string) (int, bool) {
	if d == nil {
		return 0, false
	}
	i, found := slices.BinarySearchFunc(d.at, entry, func(off int32, target string) int {
		line := d.lines[off:]
		return strings.Compare(line[:strings.IndexByte(line, '\t')], target)
	})
	if !found {
		return 0, false
	}
	_, n := d.entry(i)
	return n, true
}

// Syllables counts the syllables of one word (see Words). The word is
// looked up lower-cased, with typographic apostrophes made straight:
//
//   - a word the dictionary holds counts as it says, so "it's",
//     "group's", "well-known" and "don't" are looked up whole;
//   - else a hyphenated word is the sum of its parts, each counted by
//     these rules ("gpt-style" = "gpt" + "style");
//   - else a possessive "X's" whose X the dictionary holds is X's count,
//     plus one when X ends in a sibilant spelling (s, x, z, ce, ge, se,
//     ze, ch, sh: "Alex's", "judge's");
//   - else the vowel-group heuristic (VowelGroups) counts it; a number
//     counts one syllable.
//
// The dictionary's count may be 0 ("hmm", "sh": no vowel phoneme).
func (d *Dictionary) Syllables(word string) int {
	w := strings.ToLower(strings.ReplaceAll(word, "’", "'"))
	if n, ok := d.Lookup(w); ok {
		return n
	}
	if d != nil && strings.Contains(w, "-") {
		n := 0
		for part := range strings.SplitSeq(w, "-") {
			if part != "" {
				n += d.Syllables(part)
			}
		}
		return n
	}
	if base, ok := strings.CutSuffix(w, "'s"); ok {
		if n, ok := d.Lookup(base); ok {
			return n + sibilantEnd(base)
		}
	}
	return VowelGroups(w)
}

// sibilantEnd is 1 when the spelling of w ends in a hissing sound, after
// which a possessive "'s" is a syllable of its own.
func sibilantEnd(w string) int {
	for _, s := range []string{"s", "x", "z", "ce", "ge", "se", "ze", "ch", "sh"} {
		if strings.HasSuffix(w, s) {
			return 1
		}
	}
	return 0
}

// Method names how d counts syllables, for outputs: "cmudict" (the
// dictionary, the heuristic for words it lacks) or "vowel-groups" (nil:
// the heuristic alone).
func (d *Dictionary) Method() string {
	if d == nil {
		return "vowel-groups"
	}
	return "cmudict"
}
