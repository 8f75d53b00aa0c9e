package analysis_test

import (
	"context"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/readability"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
)

// message150 is a message of about 150 words, the paper's long messages.
var message150 = strings.Repeat("I propose that we split the apples evenly, but the cost of transport is high. "+
	"However, Dr. Smith says the pears are fair, e.g. three for each of us. ", 5)

func benchInstrument(b *testing.B, in analysis.Instrument) {
	b.Helper()
	it := analysis.Item{Text: message150}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := in.Measure(b.Context(), it); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkInstruments(b *testing.B) {
	sp, err := prose.NewSplitter()
	if err != nil {
		b.Fatal(err)
	}
	dict, err := prose.LoadDictionary()
	if err != nil {
		b.Fatal(err)
	}
	v := sentiment.NewVader()
	b.Run("readability-cmudict", func(b *testing.B) { benchInstrument(b, analysis.Readability(readability.New(sp, dict))) })
	b.Run("readability-vowel-groups", func(b *testing.B) { benchInstrument(b, analysis.Readability(readability.New(sp, nil))) })
	b.Run("sentiment-vader", func(b *testing.B) {
		benchInstrument(b, analysis.Sentiment(v, sentiment.Analyzer{Split: sp, Scorer: v}))
	})
	b.Run("dialogue-acts-cues", func(b *testing.B) { benchInstrument(b, analysis.Acts(acts.CueTagger{})) })
	b.Run("embedding-hashed-tfidf", func(b *testing.B) { benchInstrument(b, analysis.Embedding(embed.HashedTFIDF{})) })
	b.Run("stance-k10-fake-endpoint", func(b *testing.B) {
		srv := openaitest.NewServer(func(_ context.Context, r *openaitest.Request) openaitest.Reply {
			if r.SchemaName == "opinion_presence" {
				return openaitest.JSON(map[string]string{"reasoning": "r", "label": "yes"})
			}
			return openaitest.JSON(map[string]string{"reasoning": "r", "label": "neutral"})
		})
		defer srv.Close()
		lb := &label.Sampler{LLM: openai.New(openai.Config{BaseURL: srv.URL(), Model: "fake", MaxConcurrent: 10}), Endpoint: "fake", K: 10}
		benchInstrument(b, analysis.Stance(stance.Classifier{Labeler: lb, Statement: "Apples should be split evenly."}))
	})
}
