package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/readability"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
)

// buildInstrument makes the instrument the flags ask for.
func (a *App) buildInstrument(ctx context.Context, cfg Config, f annotateFlags) (analysis.Instrument, error) {
	if f.samples < 1 {
		return nil, usagef("--samples: must be at least 1, not %d", f.samples)
	}
	switch f.instrument {
	case "readability":
		return readabilityInstrument(f.method)
	case "sentiment":
		return a.sentimentInstrument(ctx, cfg, f)
	case "dialogue-acts":
		return a.actsInstrument(ctx, cfg, f)
	case "embedding":
		return a.embeddingInstrument(cfg, f)
	case "stance":
		switch f.method {
		case "lexicon":
			return analysis.Stance(stance.Lexicon{}), nil
		case "", "llm":
		default:
			return nil, usagef("--method: %q is not llm or lexicon (for stance)", f.method)
		}
		if strings.TrimSpace(f.statement) == "" {
			return nil, usagef("--instrument stance needs --statement TEXT, the statement under audit")
		}
		lb, err := a.labeler(ctx, cfg, f)
		if err != nil {
			return nil, err
		}
		return analysis.Stance(stance.Classifier{Labeler: lb, Statement: f.statement, Complement: f.complement}), nil
	case "":
		return nil, usagef("--instrument is required: readability, dialogue-acts, embedding, sentiment or stance")
	}
	return nil, usagef("--instrument: %q is not readability, dialogue-acts, embedding, sentiment or stance", f.instrument)
}

// readabilityInstrument counts syllables with the CMU Pronouncing
// Dictionary (method "" or cmudict) or the vowel-group heuristic alone
// (vowel-groups, the project's earlier count).
func readabilityInstrument(method string) (analysis.Instrument, error) {
	var dict *prose.Dictionary
	switch method {
	case "", "cmudict":
		var err error
		if dict, err = prose.LoadDictionary(); err != nil {
			return nil, err
		}
	case "vowel-groups":
	default:
		return nil, usagef("--method: %q is not cmudict or vowel-groups (for readability)", method)
	}
	sp, err := prose.NewSplitter()
	return analysis.Readability(readability.New(sp, dict)), err
}

func (a *App) sentimentInstrument(ctx context.Context, cfg Config, f annotateFlags) (analysis.Instrument, error) {
	sp, err := prose.NewSplitter()
	if err != nil {
		return nil, err
	}
	v := sentiment.NewVader()
	switch f.method {
	case "", "vader":
		return analysis.Sentiment(v, sentiment.Analyzer{Split: sp, Scorer: v}), nil
	case "llm":
		lb, err := a.labeler(ctx, cfg, f)
		if err != nil {
			return nil, err
		}
		return analysis.Sentiment(v, sentiment.Analyzer{Split: sp, Scorer: sentiment.LLM{Labeler: lb}}), nil
	}
	return nil, usagef("--method: %q is not vader or llm (for sentiment)", f.method)
}

func (a *App) actsInstrument(ctx context.Context, cfg Config, f annotateFlags) (analysis.Instrument, error) {
	switch f.method {
	case "", "cue-phrases":
		return analysis.Acts(acts.CueTagger{}), nil
	case "llm":
		lb, err := a.labeler(ctx, cfg, f)
		if err != nil {
			return nil, err
		}
		return analysis.Acts(acts.Model{Labeler: lb}), nil
	}
	return nil, usagef("--method: %q is not cue-phrases or llm (for dialogue-acts)", f.method)
}

func (a *App) embeddingInstrument(cfg Config, f annotateFlags) (analysis.Instrument, error) {
	switch f.method {
	case "", "hashed-tfidf":
		return analysis.Embedding(embed.HashedTFIDF{}), nil
	case "llm":
		m, name, err := a.endpoint(cfg, f)
		if err != nil {
			return nil, err
		}
		return analysis.Embedding(m.clients[name].Embedder(f.embeddingModel)), nil
	}
	return nil, usagef("--method: %q is not hashed-tfidf or llm (for embedding)", f.method)
}

// endpoint returns the configured models and the name of the one to ask.
func (a *App) endpoint(cfg Config, f annotateFlags) (*minds, string, error) {
	m, err := a.newMinds(cfg, f.llm, mindOptions{})
	if err != nil {
		return nil, "", err
	}
	if len(m.clients) == 0 {
		return nil, "", usagef("--instrument %s: no language model is configured: add an [[llm]] endpoint or pass --llm-base-url and --llm-model", f.instrument)
	}
	name := f.endpoint
	if name == "" {
		name = m.first
	}
	if _, ok := m.clients[name]; !ok {
		return nil, "", usagef("--endpoint: no [[llm]] endpoint is named %q", name)
	}
	return m, name, nil
}

// labeler makes the Sampler or Negotiator the flags ask for.
func (a *App) labeler(_ context.Context, cfg Config, f annotateFlags) (label.Labeler, error) {
	demos, err := loadDemos(f.demos, f.demoK)
	if err != nil {
		return nil, err
	}
	m, name, err := a.endpoint(cfg, f)
	if err != nil {
		return nil, err
	}
	if f.negotiate == "" {
		return &label.Sampler{LLM: m.clients[name], Endpoint: name, K: f.samples, Demos: demos}, nil
	}
	names := strings.Split(f.negotiate, ",")
	if len(names) < 2 || len(names) > 3 {
		return nil, usagef("--negotiate: name two or three [[llm]] endpoints, not %d", len(names))
	}
	n := &label.Negotiator{MaxTurns: f.maxTurns, Demos: demos}
	for _, nm := range names {
		c, ok := m.clients[strings.TrimSpace(nm)]
		if !ok {
			return nil, usagef("--negotiate: no [[llm]] endpoint is named %q", nm)
		}
		n.Endpoints = append(n.Endpoints, label.Endpoint{Name: strings.TrimSpace(nm), LLM: c})
	}
	return n, nil
}

// loadDemos reads labelled examples, one JSON object a line.
func loadDemos(path string, k int) (*label.Demonstrations, error) {
	if path == "" {
		return nil, nil
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, usagef("--demos: %v", err)
	}
	defer fh.Close()
	d := &label.Demonstrations{K: k}
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 64<<10), maxAnnotateLine)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var demo label.Demo
		if err := json.Unmarshal(sc.Bytes(), &demo); err != nil || demo.Text == "" || len(demo.Labels) == 0 {
			return nil, usagef("--demos: %s:%d: want {\"text\":\"…\",\"labels\":[\"…\"]} (%v)", path, line, err)
		}
		d.Set = append(d.Set, demo)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--demos: read %s: %w", path, err)
	}
	return d, nil
}
