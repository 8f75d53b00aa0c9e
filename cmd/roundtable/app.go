package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/spf13/cobra"
)

// App is the roundtable command with its environment injected, so tests
// run it end to end without a subprocess.
type App struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string

	configPath string
	logLevel   string
	minds      *minds // the language models of the running command, if any
}

// usageError marks errors caused by malformed input (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// configFile names the config file for an error about one of its keys
// ("config FILE: "), or nothing when the defaults apply.
func (a *App) configFile() string {
	if a.configPath == "" {
		return ""
	}
	return "config " + a.configPath + ": "
}

// Run executes the command line args and returns the exit status: 0 on
// success, 2 for malformed input or flags, 1 for any other failure.
func (a *App) Run(ctx context.Context, args []string) int {
	root := a.root()
	root.SetArgs(args)
	root.SetIn(a.Stdin)
	root.SetOut(a.Stdout)
	root.SetErr(a.Stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	fmt.Fprintln(a.Stderr, "roundtable:", err)
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

func (a *App) root() *cobra.Command {
	root := &cobra.Command{
		Use:           "roundtable",
		Short:         "LLM agents and people deliberate and decide by social-choice rules",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.PersistentFlags().StringVar(&a.configPath, "config", "", "configuration file (TOML); the embedded defaults apply without one")
	root.PersistentFlags().StringVar(&a.logLevel, "log-level", "warn", "log level: debug, info, warn or error")
	root.AddCommand(a.serveCmd(), a.simCmd(), a.tallyCmd(), a.tablesCmd(), a.exportCmd(), a.backupCmd())
	root.AddCommand(a.annotateCmd(), a.migrateCmd())
	root.AddCommand(a.analyzeCmd())
	root.AddCommand(a.studyCmd())
	return root
}

// logger returns a logger on stderr at the configured level.
func (a *App) logger() *slog.Logger {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(a.logLevel)); err != nil {
		lvl = slog.LevelWarn
	}
	return slog.New(slog.NewTextHandler(a.Stderr, &slog.HandlerOptions{Level: lvl}))
}

// isTerminal reports whether w is a terminal (for progress bars).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
