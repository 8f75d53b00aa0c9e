package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	berrors "go.etcd.io/bbolt/errors"

	"github.com/roundtable-ai/roundtable/store"
	"github.com/roundtable-ai/roundtable/store/storetest"
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
		if err := db.Check(); err != nil && !errors.Is(err, berrors.ErrDatabaseNotOpen) { // Reopen closed it
			t.Error(err)
		}
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

func TestSuite(t *testing.T) {
	storetest.Run(t, storetest.Backend{
		Open: func(t *testing.T) storetest.Store { return openTest(t, store.Options{NoSync: true}) },
		Reopen: func(t *testing.T, s storetest.Store, readOnly bool) storetest.Store {
			db := s.(*store.DB)
			if err := db.Check(); err != nil {
				t.Error(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			re, err := store.Open(db.Path(), store.Options{ReadOnly: readOnly})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { re.Close() })
			return re
		},
	})
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
