package store_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
)

// TestBackupWhileWriting copies the database while writers append to it;
// each copy must be a sound file whose logs are prefixes of the final ones,
// with summaries matching their logs.
func TestBackupWhileWriting(t *testing.T) {
	const writers = 8
	db := openTest(t, store.Options{})
	ctx, stop := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	warm := make(chan struct{}, writers)
	for i := range writers {
		wg.Go(func() { appendUntilDone(ctx, t, db, fmt.Sprintf("t%d", i), warm) })
	}
	for range writers {
		<-warm // every table has a few events before the copies start
	}

	dir := t.TempDir()
	var buf bytes.Buffer
	n, err := db.Backup(t.Context(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Errorf("Backup reported %d bytes, wrote %d", n, buf.Len())
	}
	streamed := filepath.Join(dir, "streamed.db")
	if err := os.WriteFile(streamed, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file.db")
	if err := db.BackupFile(t.Context(), file); err != nil {
		t.Fatal(err)
	}
	stop()
	wg.Wait()

	for _, p := range []string{streamed, file} {
		checkCopy(t, db, p)
	}
	if mode, err := statMode(file); err != nil || mode != 0o600 {
		t.Errorf("backup file mode = %v, %v; want 0600", mode, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("backup directory holds %d files, want 2 (no temporary left)", len(entries))
	}
}

// appendUntilDone appends messages to a new table until ctx is done,
// signalling warm once after a few.
func appendUntilDone(ctx context.Context, t *testing.T, db *store.DB, table string, warm chan<- struct{}) {
	cfg := roundtabletest.SampleConfig(1).WithDefaults()
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	e := roundtable.Event{Table: table, Seq: 1, Time: now, Data: roundtable.TableCreated{Config: cfg}}
	for ; ; e.Seq++ {
		if err := db.Append(ctx, table, []roundtable.Event{e}); err != nil {
			if ctx.Err() == nil {
				t.Errorf("append to %s: %v", table, err)
			}
			return
		}
		if e.Seq == 3 {
			warm <- struct{}{}
		}
		e.Actor, e.Data = "bot-1", roundtable.MessagePosted{Round: 1, Text: fmt.Sprintf("message %d", e.Seq+1)}
	}
}

// checkCopy opens a backup and compares it with the live database.
func checkCopy(t *testing.T, live *store.DB, path string) {
	t.Helper()
	cp, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("open backup: %v", err)
	}
	defer cp.Close()
	if err := cp.Check(); err != nil {
		t.Fatalf("backup %s: %v", path, err)
	}
	sums := mustTables(t, cp)
	if len(sums) == 0 {
		t.Fatalf("backup %s has no tables", path)
	}
	for _, sum := range sums {
		got, all := mustLoad(t, cp, sum.ID), mustLoad(t, live, sum.ID)
		if sum.Events != uint64(len(got)) || len(got) > len(all) {
			t.Errorf("backup %s: table %s has %d events, summary says %d, live has %d", path, sum.ID, len(got), sum.Events, len(all))
			continue
		}
		if g, w := roundtabletest.MustJSON(t, got), roundtabletest.MustJSON(t, all[:len(got)]); g != w {
			t.Errorf("backup %s: table %s is not a prefix of the live log", path, sum.ID)
		}
	}
}
