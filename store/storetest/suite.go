// Package storetest is the conformance suite of store.Backend: the bbolt
// file (package store) and etcd (package etcdstore) run the same tests,
// those of roundtabletest included.
package storetest

import (
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
)

// Store is a backend under test with the hooks through which the suite
// damages what it stores, as a crash, a bug or an old version might (each
// backend's export_test.go has them).
type Store interface {
	store.Backend
	// PutRawSnapshot stores v as table's snapshot head as it is.
	PutRawSnapshot(table string, v []byte) error
	// DropSnapshots removes every snapshot and stored round.
	DropSnapshots() error
	// DeleteSnapshotRound removes ended round r of table's snapshot.
	DeleteSnapshotRound(table string, r int) error
}

// Backend opens stores of one kind for the suite.
type Backend struct {
	// Open returns a new, empty store, closed when t ends.
	Open func(t *testing.T) Store
	// Reopen closes s and opens what it stores again, read-only when
	// asked; the new store is closed when t ends.
	Reopen func(t *testing.T, s Store, readOnly bool) Store
}

// Run runs the suite against b. Run it with -race.
func Run(t *testing.T, b Backend) {
	t.Run("roundtable", func(t *testing.T) {
		roundtabletest.StoreSuite(t, func(t *testing.T) roundtable.Store { return b.Open(t) })
		roundtabletest.SnapshotSuite(t, func(t *testing.T) roundtable.SnapshotStore { return b.Open(t) })
		roundtabletest.AnnotationSuite(t, func(t *testing.T) roundtable.AnnotationStore { return b.Open(t) })
	})
	tests := []struct {
		name string
		fn   func(t *testing.T, b Backend)
	}{
		{"ReopenKeepsEverything", testReopen},
		{"LoadFrom", testLoadFrom},
		{"AppendChecksTable", testAppendChecksTable},
		{"Bindings", testBindings},
		{"Blobs", testBlobs},
		{"BlobRecordsAppendWalkAndDrop", testBlobRecords},
		{"BlobRangesReadOnlyTheRanges", testBlobRanges},
		{"AnnotationsStayOutOfTheLog", testAnnotationsApart},
		{"PutAnnotationsStoresAllOrNothing", testPutAnnotations},
		{"WalkListsWhatIsBesideTheLogs", testWalk},
		{"CopyMovesEverything", testCopy},
		{"DamagedSnapshotFallsBackToTheLog", testDamagedSnapshot},
		{"SnapshotWithAMissingRoundFallsBackToTheLog", testMissingRound},
		{"TablesWithoutSnapshotsOpen", testNoSnapshots},
		{"SnapshotRefillsRoundsTheStoreLost", testRefill},
		{"ArchivedTablePlaysAsInMemory", testArchivedPlays},
		{"ArchivedTableKeepsOnlyRecentRounds", testArchivedKeeps},
		{"LoadRoundsNamesWhatIsMissing", testLoadRoundsMissing},
		{"RecentSnapshotOfAnOldHeadIsReadWhole", testOldHead},
		{"ArchivedRoundLostIsReadFromTheLog", testLostRound},
		{"HeadHoldingItsEndedRoundsArchivesNothingItDoesNotStore", testHeadHoldsRounds},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, b) })
	}
}

// SnapTime is when the suite's tables start.
var SnapTime = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func newClock() *roundtabletest.Clock { return roundtabletest.NewClock(SnapTime) }

// PlayedLog returns the events of a played sample table of the given
// rounds, table "log".
func PlayedLog(t testing.TB, rounds int) []roundtable.Event {
	t.Helper()
	mem := roundtabletest.NewMemStore()
	if _, err := roundtabletest.PlayTable(t.Context(), mem, newClock(), "log", rounds); err != nil {
		t.Fatal(err)
	}
	events, err := mem.Load(t.Context(), "log")
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// Retable gives a copy of events to table id.
func Retable(events []roundtable.Event, id string) []roundtable.Event {
	out := make([]roundtable.Event, len(events))
	for i, e := range events {
		e.Table = id
		out[i] = e
	}
	return out
}

func mustLoad(t testing.TB, s roundtable.Store, table string) []roundtable.Event {
	t.Helper()
	events, err := s.Load(t.Context(), table)
	if err != nil {
		t.Fatalf("load %s: %v", table, err)
	}
	return events
}

func mustTables(t testing.TB, s roundtable.Store) []roundtable.Summary {
	t.Helper()
	sums, err := s.Tables(t.Context())
	if err != nil {
		t.Fatalf("tables: %v", err)
	}
	return sums
}

func mustAppend(t testing.TB, s roundtable.Store, id string, events []roundtable.Event) {
	t.Helper()
	if err := s.Append(t.Context(), id, events); err != nil {
		t.Fatal(err)
	}
}

// mustOpen opens table id of s as a restart would, and returns its state
// with every round.
func mustOpen(t *testing.T, s roundtable.Store, id string) *roundtable.State {
	t.Helper()
	tbl, err := roundtable.Open(t.Context(), s, newClock(), roundtabletest.SampleTask(), id)
	if err != nil {
		t.Fatal(err)
	}
	st, err := tbl.Full(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// sameJSON fails t when got and want encode differently.
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	if g, w := roundtabletest.MustJSON(t, got), roundtabletest.MustJSON(t, want); g != w {
		t.Fatalf("%s:\n got %s\nwant %s", what, g, w)
	}
}
