// Command gen writes prose's embedded syllable dictionary from the CMU
// Pronouncing Dictionary: one line "word<TAB>syllables" per word of the
// dictionary (its first pronunciation's vowel phonemes, those with a
// stress digit), sorted by word, gzipped. prose runs it through
// `go generate` (see prose/dictionary.go):
//
//	go run ./internal/cmusource/gen -src testdata/cmu-pronouncing-dictionary-3.0.0.tgz -out dict/cmudict-syllables.tsv.gz
//
// The source is the npm package's tarball as `npm pack
// cmu-pronouncing-dictionary@3.0.0` fetches it; gen refuses any other
// (its SHA-512 must be the registry's integrity). To move to a newer
// release, pack it into testdata, update cmusource.Integrity and the
// paths here and in prose, and run go generate ./roundtable/analysis/prose.
package main

import (
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose/internal/cmusource"
)

func main() {
	src := flag.String("src", "", "the npm tarball of cmu-pronouncing-dictionary")
	out := flag.String("out", "", "the gzipped word<TAB>syllables file to write")
	flag.Parse()
	if err := generate(*src, *out); err != nil {
		slog.Error("generate the syllable dictionary", "err", err)
		os.Exit(1)
	}
}

func generate(src, out string) error {
	if src == "" || out == "" {
		return fmt.Errorf("give -src TARBALL and -out FILE")
	}
	tgz, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	prons, err := cmusource.Read(tgz)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		f.Close()
		return err
	}
	w := bufio.NewWriter(zw)
	words := make([]string, 0, len(prons))
	for word := range prons {
		words = append(words, word)
	}
	slices.Sort(words)
	for _, word := range words {
		fmt.Fprintf(w, "%s\t%d\n", word, cmusource.Syllables(prons[word]))
	}
	for _, step := range []func() error{w.Flush, zw.Close, f.Close} {
		if err := step(); err != nil {
			return fmt.Errorf("write %s: %w", out, err)
		}
	}
	return nil
}
