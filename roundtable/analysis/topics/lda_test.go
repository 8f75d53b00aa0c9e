package topics_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/topics"
)

// planted are three topics with disjoint vocabularies of eight words.
var planted = [][]string{
	{"budget", "cost", "price", "margin", "revenue", "profit", "invoice", "cash"},
	{"kafka", "pipeline", "cloud", "cluster", "schema", "query", "stream", "index"},
	{"shift", "plant", "sensor", "forklift", "safety", "roster", "machine", "floor"},
}

// corpus draws 90 documents of 40 words: each document mostly (90%) of
// one planted topic, the rest of a second one, words uniform within a
// topic.
func corpus(seed uint64) [][]string {
	rng := rand.New(rand.NewPCG(seed, 1))
	var docs [][]string
	for d := range 90 {
		main, other := d%3, (d+1+rng.IntN(2))%3
		var doc []string
		for range 40 {
			t := main
			if rng.Float64() < 0.1 {
				t = other
			}
			doc = append(doc, planted[t][rng.IntN(8)])
		}
		docs = append(docs, doc)
	}
	return docs
}

func sorted(ws []string) []string {
	s := slices.Clone(ws)
	slices.Sort(s)
	return s
}

// The sampler recovers the planted topics: with K = 3, each fitted
// topic's eight most probable words are exactly one planted topic's, and
// every planted topic is found once; each document's largest share is
// its main topic's.
func TestFitRecoversPlantedTopics(t *testing.T) {
	docs := corpus(7)
	m, err := topics.Fit(docs, topics.Options{Topics: 3, Iterations: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	found := map[int]int{} // planted -> fitted
	for k := range m.Topics() {
		top := sorted(m.Top(k, 8))
		hit := slices.IndexFunc(planted, func(p []string) bool { return slices.Equal(sorted(p), top) })
		if hit < 0 {
			t.Fatalf("topic %d's top words %v are no planted topic", k, m.Top(k, 8))
		}
		if _, dup := found[hit]; dup {
			t.Fatalf("planted topic %d found twice", hit)
		}
		found[hit] = k
	}
	for d := range docs {
		mix := m.DocumentTopics(d)
		best := 0
		for k := range mix {
			if mix[k] > mix[best] {
				best = k
			}
		}
		if best != found[d%3] {
			t.Errorf("document %d: mixture %v, want topic %d (planted %d) largest", d, mix, found[d%3], d%3)
		}
	}
}

// The same documents, options and seed give the same model.
func TestFitIsDeterministic(t *testing.T) {
	docs := corpus(3)
	a, err := topics.Fit(docs, topics.Options{Topics: 4, Iterations: 50, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := topics.Fit(docs, topics.Options{Topics: 4, Iterations: 50, Seed: 9})
	for k := range 4 {
		if !reflect.DeepEqual(a.Top(k, 24), b.Top(k, 24)) || a.WordProbability(k, 0) != b.WordProbability(k, 0) {
			t.Fatalf("topic %d differs between two fits with one seed", k)
		}
	}
}

// Nuance counts the distinct words among the topics' top words: the
// three planted topics' top 8 are the 24 planted words; the top 10 of
// five topics over the same 24 words cannot exceed 24; no words, no
// nuance.
func TestNuance(t *testing.T) {
	docs := corpus(7)
	if n, err := topics.Nuance(docs, topics.Options{Topics: 3, Iterations: 200, Seed: 1}, 8); err != nil || n != 24 {
		t.Errorf("nuance (K 3, top 8) = %d, %v; want 24", n, err)
	}
	if n, err := topics.Nuance(docs, topics.Options{Seed: 1, Iterations: 100}, 0); err != nil || n != 24 {
		t.Errorf("nuance (defaults: K 5, top 10) = %d, %v; want all 24 words", n, err)
	}
	if n, err := topics.Nuance([][]string{{}, nil}, topics.Options{}, 10); err != nil || n != 0 {
		t.Errorf("nuance of no words = %d, %v; want 0", n, err)
	}
	if _, err := topics.Fit(docs, topics.Options{Topics: -1}); err == nil {
		t.Error("Fit with -1 topics: no error")
	}
}

// A vocabulary smaller than the top n gives every word, most frequent in
// the topic first.
func TestTopOfASmallVocabulary(t *testing.T) {
	m, err := topics.Fit([][]string{{"a", "b", "b", "c", "c", "c"}}, topics.Options{Topics: 1, Iterations: 5})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Top(0, 10); fmt.Sprint(got) != "[c b a]" {
		t.Errorf("Top = %v, want [c b a]", got)
	}
}

func BenchmarkFit(b *testing.B) {
	docs := corpus(1)
	for b.Loop() {
		if _, err := topics.Fit(docs, topics.Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
