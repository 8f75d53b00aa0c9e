package store_test

import (
	"os"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

func mustLoad(t testing.TB, db *store.DB, table string) []roundtable.Event {
	t.Helper()
	events, err := db.Load(t.Context(), table)
	if err != nil {
		t.Fatalf("load %s: %v", table, err)
	}
	return events
}

func mustTables(t testing.TB, db *store.DB) []roundtable.Summary {
	t.Helper()
	sums, err := db.Tables(t.Context())
	if err != nil {
		t.Fatalf("tables: %v", err)
	}
	return sums
}

func statMode(path string) (os.FileMode, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Mode().Perm(), nil
}

func writeFile(path string, b []byte) error { return os.WriteFile(path, b, 0o600) }

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
