package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
)

// openTest opens a database in a new temporary directory and checks and
// closes it when the test ends.
func openTest(t testing.TB, opt store.Options) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "sub", "roundtable.db"), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Error(err)
		}
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

func TestStoreSuite(t *testing.T) {
	roundtabletest.StoreSuite(t, func(t *testing.T) roundtable.Store { return openTest(t, store.Options{}) })
}

func TestReopenKeepsEverything(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "roundtable.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := roundtabletest.PlayTable(ctx, db, newClock(), "t1", 1); err != nil {
		t.Fatal(err)
	}
	if err := db.Bind(ctx, "discord:42", "t1"); err != nil {
		t.Fatal(err)
	}
	before, beforeSums := mustLoad(t, db, "t1"), mustTables(t, db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, err = store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if g, w := roundtabletest.MustJSON(t, mustLoad(t, db, "t1")), roundtabletest.MustJSON(t, before); g != w {
		t.Errorf("log after reopen:\n got %s\nwant %s", g, w)
	}
	if g, w := roundtabletest.MustJSON(t, mustTables(t, db)), roundtabletest.MustJSON(t, beforeSums); g != w {
		t.Errorf("summaries after reopen:\n got %s\nwant %s", g, w)
	}
	if table, ok, err := db.Lookup(ctx, "discord:42"); table != "t1" || !ok || err != nil {
		t.Errorf("Lookup after reopen = %q, %t, %v; want t1", table, ok, err)
	}
	if err := db.Bind(ctx, "discord:43", "t1"); err == nil {
		t.Error("Bind on a read-only store succeeded")
	}
}

func TestLoadFrom(t *testing.T) {
	ctx := t.Context()
	db := openTest(t, store.Options{NoSync: true})
	if _, err := roundtabletest.PlayTable(ctx, db, newClock(), "t1", 1); err != nil {
		t.Fatal(err)
	}
	all := mustLoad(t, db, "t1")
	for _, from := range []uint64{0, 1, 5, uint64(len(all)), uint64(len(all)) + 1} {
		got, err := db.LoadFrom(ctx, "t1", from)
		if err != nil {
			t.Fatalf("LoadFrom(%d): %v", from, err)
		}
		want := all[min(max(from, 1)-1, uint64(len(all))):]
		if g, w := roundtabletest.MustJSON(t, got), roundtabletest.MustJSON(t, want); g != w {
			t.Errorf("LoadFrom(%d) returned %d events, want %d", from, len(got), len(want))
		}
	}
	if _, err := db.LoadFrom(ctx, "nope", 3); roundtable.ErrorCode(err) != roundtable.NotFound {
		t.Errorf("LoadFrom(unknown) = %v, want NotFound", err)
	}
}

func TestAppendChecksTable(t *testing.T) {
	db := openTest(t, store.Options{NoSync: true})
	e := roundtable.Event{Table: "other", Seq: 1, Data: roundtable.TableCreated{}}
	err := db.Append(t.Context(), "t1", []roundtable.Event{e})
	if roundtable.ErrorCode(err) != roundtable.Invalid {
		t.Errorf("Append of another table's event = %v, want code invalid", err)
	}
}

func TestOpenMakesPrivateFile(t *testing.T) {
	db := openTest(t, store.Options{})
	for _, p := range []string{db.Path(), filepath.Dir(db.Path())} {
		fi, err := statMode(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi&0o077 != 0 {
			t.Errorf("%s has mode %v; others may read it", p, fi)
		}
	}
}

func TestOpenRejectsForeignFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	if err := writeFile(path, []byte("not a database, just text padded out to a page")); err != nil {
		t.Fatal(err)
	}
	if db, err := store.Open(path, store.Options{}); err == nil {
		db.Close()
		t.Fatal("Open of a text file succeeded")
	}
}

func TestCancelledBackup(t *testing.T) {
	db := openTest(t, store.Options{NoSync: true})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := db.Backup(ctx, discard{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Backup with a cancelled context = %v, want context.Canceled", err)
	}
}

func newClock() *roundtabletest.Clock {
	return roundtabletest.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
}
