package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable/task"
	"github.com/roundtable-ai/roundtable/store"
)

// embeddedService runs the bot service as serve wires it on the embedded
// defaults (agents, presets, seat checks, audits), over the fake platform.
// stop ends the service (the test's end also does); the database stays
// open until the test ends.
func embeddedService(t *testing.T) (d *driver, db *store.DB, stop func()) {
	t.Helper()
	return configuredService(t, DefaultConfig())
}

// configuredService runs the bot service as serve wires it on cfg.
func configuredService(t *testing.T, cfg Config) (d *driver, db *store.DB, stop func()) {
	t.Helper()
	app := &App{Stderr: &lockedBuffer{wrote: make(chan struct{}, 1)}, Getenv: func(string) string { return "" }}
	m, err := app.newMinds(cfg, llmFlags{}, mindOptions{seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	bc, err := app.botConfig(cfg, m)
	if err != nil {
		t.Fatal(err)
	}
	db, err = store.Open(filepath.Join(t.TempDir(), "rt.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	fake := bottest.NewFake()
	svc := bot.New(bc, bot.Deps{Store: db, Clock: bottest.NewClock(time.Unix(1e9, 0)), Task: task.Live, Agent: m.agent,
		Seatable: seatable, Audit: app.auditing(ctx, cfg, db)}, fake)
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cancel()
			<-done
		}
	}
	t.Cleanup(stop)
	return &driver{t: t, p: fake, ch: fake.Channel()}, db, stop
}
