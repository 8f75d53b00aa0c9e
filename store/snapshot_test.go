package store_test

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
)

var snapTime = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// playedLog returns the events of a played sample table of the given rounds.
func playedLog(t *testing.T, rounds int) []roundtable.Event {
	t.Helper()
	mem := roundtabletest.NewMemStore()
	if _, err := roundtabletest.PlayTable(t.Context(), mem, roundtabletest.NewClock(snapTime), "log", rounds); err != nil {
		t.Fatal(err)
	}
	events, err := mem.Load(t.Context(), "log")
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// retable gives a copy of events to table id.
func retable(events []roundtable.Event, id string) []roundtable.Event {
	out := make([]roundtable.Event, len(events))
	for i, e := range events {
		e.Table = id
		out[i] = e
	}
	return out
}

func mustOpen(t *testing.T, db *store.DB, id string) *roundtable.State {
	t.Helper()
	tbl, err := roundtable.Open(t.Context(), db, roundtabletest.NewClock(snapTime), roundtabletest.SampleTask(), id)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tbl.Full(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSnapshotSuite(t *testing.T) {
	roundtabletest.SnapshotSuite(t, func(t *testing.T) roundtable.SnapshotStore { return openTest(t, store.Options{NoSync: true}) })
}

// TestDamagedSnapshotFallsBackToTheLog spoils the snapshot in every way the
// store can see (and gives it an older one, which is still a valid start)
// and checks that Open still rebuilds the table from its whole log.
func TestDamagedSnapshotFallsBackToTheLog(t *testing.T) {
	log := playedLog(t, 2)
	cut := len(log) / 2
	snapOf := func(t *testing.T, events []roundtable.Event) []byte {
		b, err := store.EncodeSnapshot(roundtabletest.MustReplay(t, events), events[len(events)-1])
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	good := func(t *testing.T, id string, seq int) []byte { return snapOf(t, retable(log, id)[:seq]) }
	spoil := map[string]func(t *testing.T, id string) []byte{
		"garbage":   func(*testing.T, string) []byte { return []byte("not a snapshot at all") },
		"truncated": func(*testing.T, string) []byte { return []byte{0, 1} },
		"bad json":  func(t *testing.T, id string) []byte { b := good(t, id, cut); return b[:len(b)-3] },
		"wrong seq": func(t *testing.T, id string) []byte {
			b := good(t, id, cut)
			binary.BigEndian.PutUint64(b, 3)
			return b
		},
		"other table": func(t *testing.T, id string) []byte { return good(t, "other", cut) },
		"older":       func(t *testing.T, id string) []byte { return good(t, id, 2) }, // still a valid start
		"another log": func(t *testing.T, id string) []byte {
			other := retable(log, id)[:cut]
			for i := range other {
				other[i].Time = other[i].Time.Add(time.Hour)
			}
			return snapOf(t, other)
		},
		"ahead of log": func(t *testing.T, id string) []byte { return good(t, id, len(log)) },
	}
	db := openTest(t, store.Options{NoSync: true})
	for name, f := range spoil {
		t.Run(name, func(t *testing.T) {
			id := "t-" + name
			events := retable(log, id)
			if err := db.Append(t.Context(), id, events[:cut]); err != nil {
				t.Fatal(err)
			}
			if err := db.PutRawSnapshot(id, f(t, id)); err != nil {
				t.Fatal(err)
			}
			want := events[:cut] // the snapshot "ahead of log" is of all events
			if name != "ahead of log" {
				if err := db.Append(t.Context(), id, events[cut:]); err != nil {
					t.Fatal(err)
				}
				want = events
			}
			if g, w := roundtabletest.MustJSON(t, mustOpen(t, db, id)), roundtabletest.MustJSON(t, roundtabletest.MustReplay(t, want)); g != w {
				t.Fatalf("opened\n%s\nreplayed\n%s", g, w)
			}
		})
	}
}

// TestSnapshotWithAMissingRoundFallsBackToTheLog deletes an ended round
// of a snapshot that stores its ended rounds apart.
func TestSnapshotWithAMissingRoundFallsBackToTheLog(t *testing.T) {
	log := playedLog(t, 3)
	db := openTest(t, store.Options{NoSync: true})
	cut := len(log) - 3 // in round 3: rounds 1 and 2 have ended
	if err := db.Append(t.Context(), "log", log[:cut-1]); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendSnapshot(t.Context(), "log", log[cut-1:cut], roundtabletest.MustReplay(t, log[:cut])); err != nil {
		t.Fatal(err)
	}
	if err := db.Append(t.Context(), "log", log[cut:]); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteSnapshotRound("log", 2); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.LoadSnapshot(t.Context(), "log"); err == nil {
		t.Error("LoadSnapshot took a snapshot without its round 2")
	}
	if g, w := roundtabletest.MustJSON(t, mustOpen(t, db, "log")), roundtabletest.MustJSON(t, roundtabletest.MustReplay(t, log)); g != w {
		t.Fatalf("opened\n%s\nreplayed\n%s", g, w)
	}
}

// TestTablesWithoutSnapshotsOpen opens a table of a file written before
// snapshots existed.
func TestTablesWithoutSnapshotsOpen(t *testing.T) {
	log := playedLog(t, 2)
	db := openTest(t, store.Options{NoSync: true})
	if err := db.Append(t.Context(), "log", log); err != nil {
		t.Fatal(err)
	}
	if err := db.DropSnapshots(); err != nil {
		t.Fatal(err)
	}
	snap, tail, err := db.LoadSnapshot(t.Context(), "log")
	if err != nil || snap != nil || len(tail) != len(log) {
		t.Fatalf("LoadSnapshot = %v, %d events, %v; want no snapshot and the whole log", snap, len(tail), err)
	}
	if g, w := roundtabletest.MustJSON(t, mustOpen(t, db, "log")), roundtabletest.MustJSON(t, roundtabletest.MustReplay(t, log)); g != w {
		t.Fatalf("opened\n%s\nreplayed\n%s", g, w)
	}
}

// TestSnapshotRefillsRoundsTheFileLost drops the stored snapshots of a
// table in play (the store still believes its ended rounds stored) and
// checks that the next snapshot stores them again. The table is opened
// again after the drop: the rounds it had archived are in no snapshot, so
// only its log has them.
func TestSnapshotRefillsRoundsTheFileLost(t *testing.T) {
	db := openTest(t, store.Options{NoSync: true})
	clock := roundtabletest.NewClock(snapTime)
	tbl, err := roundtabletest.StartTable(t.Context(), db, clock, "t1", 16)
	if err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 16; r++ {
		if r == 9 {
			if err := db.DropSnapshots(); err != nil {
				t.Fatal(err)
			}
			if tbl, err = roundtable.Open(t.Context(), db, clock, roundtabletest.SampleTask(), "t1"); err != nil {
				t.Fatal(err)
			}
		}
		if err := roundtabletest.PlayRound(t.Context(), tbl, clock); err != nil {
			t.Fatal(err)
		}
	}
	if snap, _, err := db.LoadSnapshot(t.Context(), "t1"); err != nil || snap == nil || snap.Round < 9 {
		t.Fatalf("LoadSnapshot: %v, %v; want a snapshot after round 9", snap, err)
	}
	played, err := tbl.Full(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if g, w := roundtabletest.MustJSON(t, mustOpen(t, db, "t1")), roundtabletest.MustJSON(t, played); g != w {
		t.Fatalf("opened\n%s\nplayed\n%s", g, w)
	}
}
