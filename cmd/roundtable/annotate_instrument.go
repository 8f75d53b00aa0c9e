package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
)

// buildInstrument makes the instrument the flags ask for.
func (a *App) buildInstrument(ctx context.Context, cfg Config, f annotateFlags) (analysis.Instrument, error) {
	if f.samples < 1 {
		return nil, usagef("--samples: must be at least 1, not %d", f.samples)
	}
	in, err := analysis.New(analysis.Spec{Instrument: f.instrument, Method: f.method, Statement: f.statement, Complement: f.complement,
		Labeler: func() (label.Labeler, error) { return a.labeler(ctx, cfg, f) },
		Embedder: func() (embed.Embedder, error) {
			c, _, err := a.endpoint(cfg, f)
			if err != nil {
				return nil, err
			}
			return c.Embedder(f.embeddingModel), nil
		}})
	if roundtable.ErrorCode(err) == roundtable.Invalid {
		return nil, usageError{err}
	}
	return in, err
}

// endpoint returns the endpoint to ask and the configured ones.
func (a *App) endpoint(cfg Config, f annotateFlags) (*openai.Client, *minds, error) {
	m, err := a.newMinds(cfg, f.llm, mindOptions{})
	if err != nil {
		return nil, nil, err
	}
	if m.eps.Len() == 0 {
		return nil, nil, usagef("--instrument %s: no language model is configured: add an [[llm]] endpoint or pass --llm-base-url and --llm-model", f.instrument)
	}
	c, ok := m.eps.Client(f.endpoint)
	if !ok {
		return nil, nil, usagef("--endpoint: no [[llm]] endpoint is named %q", f.endpoint)
	}
	return c, m, nil
}

// labeler makes the Sampler or Negotiator the flags ask for.
func (a *App) labeler(_ context.Context, cfg Config, f annotateFlags) (label.Labeler, error) {
	demos, err := loadDemos(f.demos, f.demoK)
	if err != nil {
		return nil, err
	}
	if demos != nil {
		demos.Plain = f.demosPlain
	}
	c, m, err := a.endpoint(cfg, f)
	if err != nil {
		return nil, err
	}
	if f.negotiate == "" {
		return &label.Sampler{LLM: c, Endpoint: c.Config().Name, K: f.samples, Demos: demos}, nil
	}
	names := strings.Split(f.negotiate, ",")
	if len(names) < 2 || len(names) > 3 {
		return nil, usagef("--negotiate: name two or three [[llm]] endpoints, not %d", len(names))
	}
	n := &label.Negotiator{MaxTurns: f.maxTurns, Demos: demos}
	for _, nm := range names {
		c, ok := m.eps.Client(strings.TrimSpace(nm))
		if !ok || strings.TrimSpace(nm) == "" {
			return nil, usagef("--negotiate: no [[llm]] endpoint is named %q", nm)
		}
		n.Endpoints = append(n.Endpoints, label.Endpoint{Name: strings.TrimSpace(nm), LLM: c})
	}
	return n, nil
}

// loadDemos reads --demos: labelled examples, one JSON object a line.
func loadDemos(path string, k int) (*label.Demonstrations, error) {
	if path == "" {
		return nil, nil
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, usagef("--demos: %v", err)
	}
	defer fh.Close()
	d, err := label.ReadDemos(fh, path, k)
	if roundtable.ErrorCode(err) == roundtable.Invalid {
		return nil, usagef("--demos: %v", err)
	}
	if err != nil {
		return nil, fmt.Errorf("--demos: %w", err)
	}
	return d, nil
}

// annotateLines measures stdin's lines with in, scored against the gold
// file when one is given: the score goes to stderr.
func (a *App) annotateLines(ctx context.Context, in analysis.Instrument, goldPath string) error {
	var gold analysis.Gold
	if goldPath != "" {
		fh, err := os.Open(goldPath)
		if err != nil {
			return usagef("--gold: %v", err)
		}
		gold, err = analysis.ReadGold(fh, goldPath)
		fh.Close()
		if roundtable.ErrorCode(err) == roundtable.Invalid {
			return usagef("--gold: %v", err)
		}
		if err != nil {
			return fmt.Errorf("--gold: %w", err)
		}
	}
	score, err := analysis.AnnotateLinesGold(ctx, in, a.Stdin, a.Stdout, gold)
	if roundtable.ErrorCode(err) == roundtable.Invalid {
		return usageError{err}
	}
	if gold != nil {
		fmt.Fprintf(a.Stderr, "gold labels (%s): %s\n", in.Name(), score)
	}
	return err
}
