// Command roundtable runs deliberation tables in which LLM agents and people
// decide together by social-choice rules: live in chat (serve), headless
// for experiments (sim), or as a calculator (tally). See the README and docs/.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	app := &App{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
	code := app.Run(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}
