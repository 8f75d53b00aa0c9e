// Package embed turns texts into vectors and measures how far a round of
// messages moved from the one before it (the information difference of
// docs/protocol.md#information-difference).
//
// Any OpenAI-compatible /v1/embeddings endpoint can embed (the adapter in
// adapters/openai implements Embedder); offline, HashedTFIDF makes a
// deterministic hashed TF-IDF vector, named as such ("hashed-tfidf") in
// every annotation and output that uses it.
package embed

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
)

// Embedder embeds texts. Embed returns one vector per text, in order, all
// of the same length. Implementations must be safe for concurrent use and
// honour ctx.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float64, error)
	// Model names the model or method, for annotations.
	Model() string
}

// DefaultDim is the length of HashedTFIDF vectors when Dim is zero.
const DefaultDim = 512

// HashedTFIDF is the offline Embedder: each lower-cased word is hashed
// (FNV-1a, 64 bits) to one of Dim slots, with a sign taken from the hash
// so that collisions cancel rather than pile up; its weight is the
// sublinear term frequency 1+ln(count) times the smoothed inverse document
// frequency ln((1+N)/(1+df))+1 over the N texts of the same Embed call;
// each vector is scaled to unit length (a text without words gives the
// zero vector). Embed a table's messages in one call so that they share
// their document frequencies; a text embedded alone gets IDF 1.
type HashedTFIDF struct {
	Dim int
}

var _ Embedder = HashedTFIDF{}

// Model implements Embedder.
func (h HashedTFIDF) Model() string { return "hashed-tfidf" }

// Version is the vector's layout: its dimension.
func (h HashedTFIDF) Version() string { return fmt.Sprintf("dim %d", h.dim()) }

func (h HashedTFIDF) dim() int {
	if h.Dim <= 0 {
		return DefaultDim
	}
	return h.Dim
}

// Embed implements Embedder. It never fails but on a done ctx.
func (h HashedTFIDF) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dim := h.dim()
	counts := make([]map[string]int, len(texts))
	df := map[string]int{}
	for i, t := range texts {
		counts[i] = map[string]int{}
		for _, w := range prose.Words(t) {
			counts[i][strings.ToLower(w)]++
		}
		for w := range counts[i] {
			df[w]++
		}
	}
	out := make([][]float64, len(texts))
	n := float64(len(texts))
	for i, c := range counts {
		v := make([]float64, dim)
		for w, k := range c {
			slot, sign := hashWord(w, dim)
			v[slot] += sign * (1 + math.Log(float64(k))) * (math.Log((1+n)/(1+float64(df[w]))) + 1)
		}
		out[i] = normalize(v)
	}
	return out, nil
}

func hashWord(w string, dim int) (int, float64) {
	f := fnv.New64a()
	f.Write([]byte(w))
	h := f.Sum64()
	sign := 1.0
	if h>>63 == 1 {
		sign = -1
	}
	return int(h % uint64(dim)), sign
}

func normalize(v []float64) []float64 {
	if n := norm(v); n > 0 {
		for i := range v {
			v[i] /= n
		}
	}
	return v
}

func norm(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}
