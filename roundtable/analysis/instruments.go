package analysis

import (
	"context"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/readability"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
)

// Readability measures with m.
func Readability(m *readability.Meter) Instrument { return readabilityInstrument{m} }

type readabilityInstrument struct{ m *readability.Meter }

func (readabilityInstrument) Name() string    { return readability.Instrument }
func (r readabilityInstrument) Model() string { return r.m.Model() }
func (r readabilityInstrument) Measure(_ context.Context, it Item) (Measurement, error) {
	return Measurement{Result: r.m.Measure(it.Text)}, nil
}

// SentimentResult is the sentiment instrument's output: VADER's reading
// of the whole text, and the scored arguments with their mean S_O.
type SentimentResult struct {
	sentiment.Polarity
	Arguments []sentiment.Argument `json:"arguments"`
	Score     float64              `json:"score"`
}

// Sentiment measures the whole text with VADER (v) and its arguments with
// a's Scorer (VADER again, or a model).
func Sentiment(v *sentiment.Vader, a sentiment.Analyzer) Instrument { return sentimentInstrument{v, a} }

type sentimentInstrument struct {
	v *sentiment.Vader
	a sentiment.Analyzer
}

func (sentimentInstrument) Name() string    { return sentiment.Instrument }
func (s sentimentInstrument) Model() string { return s.a.Scorer.Model() }
func (s sentimentInstrument) Measure(ctx context.Context, it Item) (Measurement, error) {
	op, err := s.a.Opinion(ctx, it.Text)
	var samples []any
	for i := range op.Arguments {
		if v := op.Arguments[i].Verdict; v != nil {
			samples = append(samples, v)
			op.Arguments[i].Verdict = nil
		}
	}
	if err != nil {
		return Measurement{Samples: samples}, err
	}
	return Measurement{Result: SentimentResult{Polarity: s.v.Polarity(it.Text), Arguments: op.Arguments, Score: op.Score}, Samples: samples}, nil
}

// StanceResult is the stance instrument's output.
type StanceResult struct {
	Presence bool           `json:"presence"`
	Label    string         `json:"label"`
	Level    stance.Level   `json:"level"`
	Votes    map[string]int `json:"votes"`
}

// StanceClassifier classifies the stance of a text: stance.Classifier
// (a model through a labeler) or stance.Lexicon (offline).
type StanceClassifier interface {
	Classify(ctx context.Context, text string) (stance.Result, error)
	Model() string
}

// Stance classifies with c.
func Stance(c StanceClassifier) Instrument { return stanceInstrument{c} }

type stanceInstrument struct{ c StanceClassifier }

func (stanceInstrument) Name() string    { return stance.Instrument }
func (s stanceInstrument) Model() string { return s.c.Model() }
func (s stanceInstrument) Measure(ctx context.Context, it Item) (Measurement, error) {
	r, err := s.c.Classify(ctx, it.Text)
	m := Measurement{Samples: []any{r.Verdicts.Presence, r.Verdicts.Signal}}
	if err != nil {
		return m, err
	}
	m.Result = StanceResult{Presence: r.Presence, Label: r.Label, Level: r.Level, Votes: r.Votes}
	return m, nil
}

// ActsResult is the dialogue-acts instrument's output.
type ActsResult struct {
	Acts []string `json:"acts"`
}

// Acts tags with t.
func Acts(t acts.Tagger) Instrument { return actsInstrument{t} }

type actsInstrument struct{ t acts.Tagger }

func (actsInstrument) Name() string    { return acts.Instrument }
func (a actsInstrument) Model() string { return a.t.Model() }
func (a actsInstrument) Measure(ctx context.Context, it Item) (Measurement, error) {
	r, err := a.t.Tag(ctx, it.Text, it.Previous)
	var m Measurement
	if r.Verdict != nil {
		m.Samples = []any{r.Verdict}
	}
	if err != nil {
		return m, err
	}
	m.Result = ActsResult{Acts: r.Acts}
	return m, nil
}

// EmbeddingResult is the embedding instrument's output.
type EmbeddingResult struct {
	Vector []float64 `json:"vector"`
}

// Embedding embeds with e, one text at a time (a hashed TF-IDF vector of
// one text carries term frequencies only).
func Embedding(e embed.Embedder) Instrument { return embeddingInstrument{e} }

type embeddingInstrument struct{ e embed.Embedder }

// EmbedderOf is the embedder an Embedding instrument embeds with; ok is
// false for any other instrument.
func EmbedderOf(in Instrument) (e embed.Embedder, ok bool) {
	ei, ok := in.(embeddingInstrument)
	return ei.e, ok
}

func (embeddingInstrument) Name() string    { return "embedding" }
func (e embeddingInstrument) Model() string { return e.e.Model() }
func (e embeddingInstrument) Measure(ctx context.Context, it Item) (Measurement, error) {
	vs, err := e.e.Embed(ctx, []string{it.Text})
	if err != nil {
		return Measurement{}, err
	}
	return Measurement{Result: EmbeddingResult{Vector: vs[0]}}, nil
}
