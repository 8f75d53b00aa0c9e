package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
)

// TestBackupWhileInUse copies a database that another holder has open and
// is writing to: the backup command finds the file locked and streams the
// copy from the holder's backup socket.
func TestBackupWhileInUse(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "live.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := roundtabletest.PlayTable(ctx, db, roundtabletest.NewClock(time.Unix(1e9, 0)), "held", 2); err != nil {
		t.Fatal(err)
	}
	db.ServeBackups(ctx, slog.New(slog.DiscardHandler))
	dst := filepath.Join(t.TempDir(), "copy.db")
	code, out, errOut := run(t, "", "backup", "--db", path, dst)
	if code != 0 {
		t.Fatalf("backup of a held database: %s", errOut)
	}
	if !strings.Contains(out, "wrote") {
		t.Errorf("output %q", out)
	}
	code, out, _ = run(t, "", "export", "--db", dst, "--table", "held")
	if code != 0 || !strings.Contains(out, "decision_made") {
		t.Errorf("the copy lacks the held table: %.200s", out)
	}
}
