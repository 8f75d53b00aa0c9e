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
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("service: %v", err)
		}
		_ = db.Close()
	})
}
