// Package topics fits latent Dirichlet allocation (LDA) topic models by
// collapsed Gibbs sampling (Griffiths and Steyvers 2004), for the
// Sentimental Agents paper's nuance score (docs/protocol.md#panel-quality): the paper fits 5 LDA topics to an agent's
// statements with Gensim and counts the distinct words among the top 10
// words of every topic (Nuance).
//
// No maintained Go module for LDA resolves through the Go module proxy,
// so the sampler is here: seeded and deterministic (the same documents,
// options and seed give the same model), with Gensim's default priors.
package topics

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
)

// Defaults of a fit: the paper's 5 topics and top 10 words, Gensim's
// symmetric priors 1/K, and 1000 sweeps of the sampler.
const (
	DefaultTopics     = 5
	DefaultTop        = 10
	DefaultIterations = 1000
)

// Options are the settings of a fit; zero values take the defaults.
type Options struct {
	Topics     int     // K, the number of topics
	Alpha      float64 // the documents' Dirichlet prior over topics (default 1/K)
	Beta       float64 // the topics' Dirichlet prior over words (default 1/K)
	Iterations int     // Gibbs sweeps over every token
	Seed       uint64  // seeds the sampler
}

func (o Options) withDefaults() (Options, error) {
	o.Topics = cmp.Or(o.Topics, DefaultTopics)
	o.Iterations = cmp.Or(o.Iterations, DefaultIterations)
	if o.Topics < 1 || o.Iterations < 1 || o.Alpha < 0 || o.Beta < 0 {
		return o, fmt.Errorf("topics: %d topics, %d iterations, alpha %v, beta %v: want at least one topic and one iteration, and priors not negative", o.Topics, o.Iterations, o.Alpha, o.Beta)
	}
	o.Alpha = cmp.Or(o.Alpha, 1/float64(o.Topics))
	o.Beta = cmp.Or(o.Beta, 1/float64(o.Topics))
	return o, nil
}

// Model is a fitted LDA model.
type Model struct {
	// Vocabulary is every word of the documents, in the order of first
	// appearance.
	Vocabulary []string
	opts       Options
	topicWord  [][]int // n(k, w): tokens of word w assigned to topic k
	topicSize  []int   // n(k)
	docTopic   [][]int // n(d, k)
}

// ErrNoWords is Fit's error for documents without a single word.
var ErrNoWords = errors.New("topics: the documents have no words")

// Fit fits an LDA model to docs, each a list of words (tokenised, stop
// words removed: the caller decides what a word is).
func Fit(docs [][]string, o Options) (*Model, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	m := &Model{opts: o}
	index := map[string]int{}
	ids := make([][]int, len(docs))
	for d, doc := range docs {
		for _, w := range doc {
			i, ok := index[w]
			if !ok {
				i = len(m.Vocabulary)
				index[w] = i
				m.Vocabulary = append(m.Vocabulary, w)
			}
			ids[d] = append(ids[d], i)
		}
	}
	if len(m.Vocabulary) == 0 {
		return nil, ErrNoWords
	}
	m.sample(ids)
	return m, nil
}

// sample runs the collapsed Gibbs sampler over the word ids of each
// document and keeps the counts of its last sweep.
func (m *Model) sample(ids [][]int) {
	k, v := m.opts.Topics, len(m.Vocabulary)
	rng := rand.New(rand.NewPCG(m.opts.Seed, 0x70_70_1c5)) // a fixed second word: the seed alone decides
	m.topicWord, m.topicSize, m.docTopic = grid(k, v), make([]int, k), grid(len(ids), k)
	z := make([][]int, len(ids))
	for d, doc := range ids {
		z[d] = make([]int, len(doc))
		for i, w := range doc {
			z[d][i] = rng.IntN(k)
			m.count(d, z[d][i], w, 1)
		}
	}
	p := make([]float64, k)
	vBeta := float64(v) * m.opts.Beta
	for range m.opts.Iterations {
		for d, doc := range ids {
			for i, w := range doc {
				m.count(d, z[d][i], w, -1)
				total := 0.0
				for t := range k {
					total += (float64(m.docTopic[d][t]) + m.opts.Alpha) * (float64(m.topicWord[t][w]) + m.opts.Beta) / (float64(m.topicSize[t]) + vBeta)
					p[t] = total
				}
				u := rng.Float64() * total
				t := 0
				for t < k-1 && p[t] <= u {
					t++
				}
				z[d][i] = t
				m.count(d, t, w, 1)
			}
		}
	}
}

func (m *Model) count(d, t, w, by int) {
	m.docTopic[d][t] += by
	m.topicWord[t][w] += by
	m.topicSize[t] += by
}

func grid(rows, cols int) [][]int {
	g := make([][]int, rows)
	for i := range g {
		g[i] = make([]int, cols)
	}
	return g
}

// Topics is the number of topics, K.
func (m *Model) Topics() int { return m.opts.Topics }

// WordProbability is topic k's estimated probability of word i of the
// vocabulary: (n(k, w) + beta) / (n(k) + V beta).
func (m *Model) WordProbability(k, i int) float64 {
	return (float64(m.topicWord[k][i]) + m.opts.Beta) / (float64(m.topicSize[k]) + float64(len(m.Vocabulary))*m.opts.Beta)
}

// DocumentTopics is document d's estimated mixture of topics:
// (n(d, k) + alpha) / (n(d) + K alpha).
func (m *Model) DocumentTopics(d int) []float64 {
	n := 0
	for _, c := range m.docTopic[d] {
		n += c
	}
	out := make([]float64, m.opts.Topics)
	for k, c := range m.docTopic[d] {
		out[k] = (float64(c) + m.opts.Alpha) / (float64(n) + float64(m.opts.Topics)*m.opts.Alpha)
	}
	return out
}

// Top is topic k's n most probable words, the most probable first (ties
// in vocabulary order); every word when the vocabulary is smaller, as
// Gensim's show_topic gives.
func (m *Model) Top(k, n int) []string {
	order := make([]int, len(m.Vocabulary))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(m.topicWord[k][b], m.topicWord[k][a]) })
	out := make([]string, 0, min(n, len(order)))
	for _, i := range order[:min(n, len(order))] {
		out = append(out, m.Vocabulary[i])
	}
	return out
}

// Nuance is the paper's nuance score of docs: the number of distinct
// words among the top words of the topics of an LDA model fitted to them
// (o.Topics topics, top words each; the paper's are 5 and 10). Documents
// without a word have a nuance of 0.
func Nuance(docs [][]string, o Options, top int) (int, error) {
	m, err := Fit(docs, o)
	if errors.Is(err, ErrNoWords) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	seen := map[string]bool{}
	for k := range m.Topics() {
		for _, w := range m.Top(k, cmp.Or(top, DefaultTop)) {
			seen[w] = true
		}
	}
	return len(seen), nil
}
