package main

import (
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/store"
)

// AuditSettings ask for a live table's audit, in [bot] (every table) or
// a [[table]] preset (its own, replacing [bot]'s).
type AuditSettings struct {
	// Audit names the instruments: "sentiment" (VADER, offline) and/or
	// "stance" (a language model; needs audit_statement).
	Audit           []string `toml:"audit"`
	AuditStatement  string   `toml:"audit_statement"`
	AuditComplement string   `toml:"audit_complement"`
	// SelfReport asks people for a private one-click self-report at the
	// end of every round.
	SelfReport bool `toml:"self_report"`
}

// AuditModel says which model the stance audit asks, in [bot].
type AuditModel struct {
	AuditEndpoint string `toml:"audit_endpoint"` // an [[llm]] name; "" is the first
	AuditSamples  int    `toml:"audit_samples"`  // k samples per classifier (default 10)
}

// spec returns the audit these settings ask for, falling back on def;
// nil for none.
func (s AuditSettings) spec(def AuditSettings) *roundtable.AuditSpec {
	if len(s.Audit) == 0 && !s.SelfReport {
		s = def
	}
	if len(s.Audit) == 0 && !s.SelfReport {
		return nil
	}
	return &roundtable.AuditSpec{Instruments: s.Audit, Statement: s.AuditStatement, Complement: s.AuditComplement, SelfReport: s.SelfReport}
}

// auditing builds the bot's live audit over the store's annotations.
func (a *App) auditing(ctx context.Context, cfg Config, db store.Backend) bot.Auditing {
	return bot.Auditing{Store: db, Instruments: func(spec roundtable.AuditSpec) ([]analysis.Instrument, error) {
		return a.auditInstruments(ctx, cfg, spec)
	}}
}

// errNoAuditModel refuses a live table's stance audit on a server
// without a language model, in words for whoever asked for it (a web
// page, a chat command): not the command line's flags.
var errNoAuditModel = roundtable.Errorf(roundtable.Invalid,
	"the stance audit needs a language model, and this server has none configured; the sentiment audit works without one (whoever runs the server can add an [[llm]] endpoint to its config file)")

// auditInstruments builds the instruments of an audit, as `roundtable
// annotate` would with the same flags.
func (a *App) auditInstruments(ctx context.Context, cfg Config, spec roundtable.AuditSpec) ([]analysis.Instrument, error) {
	samples := cfg.Bot.AuditSamples
	if samples == 0 {
		samples = 10
	}
	var out []analysis.Instrument
	for _, name := range spec.Instruments {
		if name == "stance" && len(cfg.LLM) == 0 {
			return nil, errNoAuditModel
		}
		in, err := a.buildInstrument(ctx, cfg, annotateFlags{instrument: name, statement: spec.Statement, complement: spec.Complement,
			samples: samples, endpoint: cfg.Bot.AuditEndpoint, maxTurns: 3, demoK: 3})
		if err != nil {
			return nil, fmt.Errorf("audit %s: %w", name, err)
		}
		out = append(out, in)
	}
	return out, nil
}
