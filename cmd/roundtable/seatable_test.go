package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/store"
)

// TestStartRefusesAgentsThatCannotPlayTheTable: the embedded defaults
// offer every preset's agents on the start form; one that cannot play a
// plain text table is refused at start, naming it, and no table is made
// (before, the table was made and answered "internal error" to every act);
// so is a stance audit without a model (before, the table ran unaudited and
// only the server's log said so).
func TestStartRefusesAgentsThatCannotPlayTheTable(t *testing.T) {
	cfg := DefaultConfig()
	app := &App{Stderr: &lockedBuffer{wrote: make(chan struct{}, 1)}, Getenv: func(string) string { return "" }}
	m, err := app.newMinds(cfg, llmFlags{}, mindOptions{seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	bc, err := app.botConfig(cfg, m)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "rt.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fake := bottest.NewFake()
	ctx, cancel := context.WithCancel(context.Background())
	svc := bot.New(bc, bot.Deps{Store: db, Clock: bottest.NewClock(time.Unix(1e9, 0)), Task: liveTask, Agent: m.agent, Seatable: seatable,
		Audit: app.auditing(ctx, cfg, db)}, fake)
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	defer func() { cancel(); <-done }()

	d := &driver{t: t, p: fake, ch: fake.Channel()}
	for agent, want := range map[string]string{
		"Trader 1":      `bot agent Trader 1 cannot sit at this table: "Trader 1" is a rule-based trader, which only plays the exchange economy`,
		"Ada (DeGroot)": `bot agent Ada (DeGroot) cannot sit at this table: "Ada (DeGroot)" is a model-free degroot agent of the dyads protocol`,
	} {
		d.command(bottest.Alice, d.ch, "start", map[string]string{"topic": "Lunch?", "agents": "Facilitator," + agent})
		d.sees(bottest.Alice, want)
	}
	d.command(bottest.Alice, d.ch, "start", map[string]string{"topic": "Lunch?", "audit": "stance", "audit_statement": "Pizza is best."})
	d.sees(bottest.Alice, "audit: audit stance: --instrument stance: no language model is configured")
	if n := len(fake.Threads(d.ch)); n != 0 {
		t.Errorf("%d tables were made; want none", n)
	}
	d.command(bottest.Alice, d.ch, "start", map[string]string{"topic": "Lunch?", "agents": "Facilitator"})
	d.sees(bottest.Alice, "started in its own thread")
}
