package panel

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
)

// DefaultSupport is the defensibility threshold: an argument whose best
// passage of the item's documents is less similar than this (cosine of
// hashed TF-IDF keyword vectors) counts as unsupported and scores 0, as
// the paper scores an argument for which retrieval finds nothing.
const DefaultSupport = 0.2

// Meter measures panel texts. Build one with NewMeter and share it; it is
// safe for concurrent use.
type Meter struct {
	split *prose.Splitter
	vader *sentiment.Vader
	emb   embed.Embedder
	model bool // emb is a model's: it reads whole texts, not keywords
	// Support is the defensibility threshold (DefaultSupport).
	Support float64
}

// NewMeter loads the sentence splitter and VADER's lexicon: a word VADER
// scores carries sentiment and is never a topic. vader may be nil (it is
// then loaded); sharing one saves the load.
func NewMeter(vader *sentiment.Vader) (*Meter, error) {
	split, err := prose.NewSplitter()
	if err != nil {
		return nil, fmt.Errorf("panel meter: %w", err)
	}
	if vader == nil {
		vader = sentiment.NewVader()
	}
	return &Meter{split: split, vader: vader, emb: embed.HashedTFIDF{}, Support: DefaultSupport}, nil
}

// WithModel returns a copy of m that compares texts by a model's
// embeddings (an endpoint's /v1/embeddings), as the paper compares
// statements, passages and mental models: whole texts, not keywords.
func (m *Meter) WithModel(e embed.Embedder) *Meter {
	c := *m
	c.emb, c.model = e, true
	return &c
}

// Embedding names how texts are compared, for outputs.
func (m *Meter) Embedding() string {
	if m.model {
		return "`" + m.emb.Model() + "` embeddings of the whole texts"
	}
	return m.emb.Model() + " of keywords"
}

// Keywords are the topic words of text: content words (no stop words, no
// numbers, fewer than three letters never) that carry no sentiment in
// VADER's lexicon, lower-cased, with "'s" and a plural "s" dropped.
func (m *Meter) Keywords(text string) []string {
	return keywords(text, m.sentimental)
}

func (m *Meter) sentimental(w string) bool { return m.vader.Polarity(w).Compound != 0 }

// Arguments are the arguments of text about item among items (the
// sentiment instrument's split: sentences, cut again at "but", "however"
// and "although"): those that name the item as a word, or every argument
// when the panel has one item.
func (m *Meter) Arguments(text, item string, items []string) []string {
	args := sentiment.Arguments(m.split, text)
	if len(items) <= 1 {
		return args
	}
	re := nameRE(item)
	var out []string
	for _, a := range args {
		if re.MatchString(a) {
			out = append(out, a)
		}
	}
	return out
}

// Passages are the sentences of a source document.
func (m *Meter) Passages(doc string) []string { return m.split.Sentences(doc) }

func nameRE(item string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[^\p{L}\p{N}])` + regexp.QuoteMeta(item) + `($|[^\p{L}\p{N}])`)
}

// topicText is text's keywords without the items' names, joined: what the
// metrics embed, so that shared names and function words do not count as
// shared content.
func (m *Meter) topicText(text string, items []string) string {
	names := map[string]bool{}
	for _, it := range items {
		for _, w := range keywords(it, nil) {
			names[w] = true
		}
	}
	var kept []string
	for _, w := range m.Keywords(text) {
		if !names[w] {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// vectors embeds texts in one call: a model reads them whole; hashed
// TF-IDF embeds their topic texts (keywords without the items' names),
// which then share their document frequencies.
func (m *Meter) vectors(ctx context.Context, texts, items []string) ([][]float64, error) {
	if m.model {
		return m.emb.Embed(ctx, texts)
	}
	tt := make([]string, len(texts))
	for i, t := range texts {
		tt[i] = m.topicText(t, items)
	}
	return m.emb.Embed(ctx, tt)
}
