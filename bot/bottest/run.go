package bottest

import (
	"context"
	"io"
	"testing"

	"github.com/roundtable-ai/roundtable/bot"
)

// RunService runs svc until the test ends; then it stops it, reports an
// error Run returned, and closes db.
func RunService(t testing.TB, svc *bot.Service, db io.Closer) {
	t.Helper()
	stop := Serve(t, svc)
	t.Cleanup(func() {
		stop()
		_ = db.Close()
	})
}

// Serve runs svc in the background; stop ends it, waits for Run to
// return and reports an error it returned.
func Serve(t testing.TB, svc *bot.Service) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	return func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("service: %v", err)
		}
	}
}
