package panel

import (
	"context"
	"math"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/topics"
)

// Nuance is the paper's nuance score of arguments: an LDA model of 5
// topics is fitted to them (each argument a document of its keywords, the
// items' names left out; seeded by seed), and the score is the number of
// distinct words among the top 10 words of its topics (topics.Nuance).
func (m *Meter) Nuance(args, items []string, seed uint64) (int, error) {
	docs := make([][]string, len(args))
	for i, a := range args {
		docs[i] = strings.Fields(m.topicText(a, items))
	}
	return topics.Nuance(docs, topics.Options{Seed: seed}, topics.DefaultTop)
}

// Defensibility scores each argument by its retrieval support in the
// item's source document: the highest cosine similarity between the
// argument and a passage (sentence) of doc, both as hashed TF-IDF vectors
// of their keywords, or 0 below m.Support (nothing relevant retrieved).
func (m *Meter) Defensibility(ctx context.Context, args []string, doc string, items []string) ([]float64, error) {
	passages := m.Passages(doc)
	vs, err := m.vectors(ctx, append(append([]string(nil), passages...), args...), items)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(args))
	for i := range args {
		best := 0.0
		for j := range passages {
			c, err := embed.Cosine(vs[len(passages)+i], vs[j])
			if err != nil {
				return nil, err
			}
			best = math.Max(best, c)
		}
		if best >= m.Support {
			out[i] = best
		}
	}
	return out, nil
}

// Drift is the instability of a mental model of self across rounds: the
// mean over successive restatements of 1 − cosine similarity of their
// hashed TF-IDF keyword vectors (description, priorities and criteria,
// without their headings). ok is false for fewer than two models.
func (m *Meter) Drift(ctx context.Context, models []roundtable.SelfModel) (d float64, ok bool, err error) {
	if len(models) < 2 {
		return 0, false, nil
	}
	texts := make([]string, len(models))
	for i, sm := range models {
		texts[i] = sm.Description + "\n" + sm.Priorities + "\n" + strings.Join(sm.Criteria, "\n")
	}
	vs, err := m.vectors(ctx, texts, nil)
	if err != nil {
		return 0, false, err
	}
	sum := 0.0
	for i := 1; i < len(vs); i++ {
		c, err := embed.Cosine(vs[i-1], vs[i])
		if err != nil {
			return 0, false, err
		}
		sum += 1 - c
	}
	return sum / float64(len(vs)-1), true, nil
}

// Platitude is how alike statements about the same item are across runs:
// the mean cosine similarity over every pair of texts (one per run) as
// hashed TF-IDF keyword vectors. Higher is more platitudinous, lower more
// original. ok is false for fewer than two texts.
func (m *Meter) Platitude(ctx context.Context, texts, items []string) (p float64, ok bool, err error) {
	if len(texts) < 2 {
		return 0, false, nil
	}
	vs, err := m.vectors(ctx, texts, items)
	if err != nil {
		return 0, false, err
	}
	sum, n := 0.0, 0
	for i := range vs {
		for j := i + 1; j < len(vs); j++ {
			c, err := embed.Cosine(vs[i], vs[j])
			if err != nil {
				return 0, false, err
			}
			sum += c
			n++
		}
	}
	return sum / float64(n), true, nil
}
