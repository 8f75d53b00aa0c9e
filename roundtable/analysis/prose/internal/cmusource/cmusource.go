// Package cmusource reads the CMU Pronouncing Dictionary as the npm
// package cmu-pronouncing-dictionary 3.0.0 ships it (index.js, an ES
// module exporting one object from word to ARPAbet pronunciation; a
// word's further pronunciations are keyed "word(2)", "word(3)"...). The
// package's tarball, as `npm pack cmu-pronouncing-dictionary@3.0.0`
// fetches it, is kept in prose/testdata; Read checks it against the
// integrity hash the npm registry publishes for it.
//
// The generator (./gen) and prose's test over the whole dictionary read
// the source through this package.
package cmusource

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Integrity is the npm registry's "integrity" of
// cmu-pronouncing-dictionary-3.0.0.tgz.
const Integrity = "sha512-6y5X4OxsYFnHERo6WSVPnLrk53G07MOQ8aUb2z555JgwynpbZsHR0a//WdN6DUcmE1j2auTF2TtL4PpoKze8QQ=="

// Read reads the npm tarball and returns each word's first pronunciation.
func Read(tgz []byte) (map[string]string, error) {
	sum := sha512.Sum512(tgz)
	if got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:]); got != Integrity {
		return nil, fmt.Errorf("the tarball's integrity is %s, not npm's %s", got, Integrity)
	}
	src, err := indexJS(tgz)
	if err != nil {
		return nil, err
	}
	_, obj, ok := bytes.Cut(src, []byte("export const dictionary = "))
	if !ok {
		return nil, errors.New("index.js does not export the dictionary")
	}
	var all map[string]string
	if err := json.Unmarshal(obj, &all); err != nil {
		return nil, fmt.Errorf("index.js: %w", err)
	}
	return firsts(all), nil
}

func indexJS(tgz []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return nil, fmt.Errorf("the tarball: %w", err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil, errors.New("the tarball has no package/index.js")
		}
		if err != nil {
			return nil, fmt.Errorf("the tarball: %w", err)
		}
		if h.Name == "package/index.js" {
			return io.ReadAll(tr)
		}
	}
}

var variant = regexp.MustCompile(`^(.*)\((\d+)\)$`)

// firsts keeps each word's first pronunciation: the one keyed by the word
// itself, else the lowest-numbered variant.
func firsts(all map[string]string) map[string]string {
	out := map[string]string{}
	rank := map[string]int{}
	for k, pron := range all {
		word, n := k, 1
		if m := variant.FindStringSubmatch(k); m != nil {
			word = m[1]
			n, _ = strconv.Atoi(m[2])
		}
		if r, ok := rank[word]; !ok || n < r {
			out[word], rank[word] = pron, n
		}
	}
	return out
}

// Syllables counts the vowel phonemes of an ARPAbet pronunciation: those
// that carry a stress digit (AH0, EY1, ER2...).
func Syllables(pron string) int {
	n := 0
	for _, ph := range strings.Fields(pron) {
		if c := ph[len(ph)-1]; c >= '0' && c <= '2' {
			n++
		}
	}
	return n
}
