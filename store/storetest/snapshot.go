package storetest

import (
	"encoding/binary"
	"encoding/json"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
)

// encodeSnapshot encodes s, the state after event last, as a snapshot
// head that holds all its rounds.
func encodeSnapshot(t *testing.T, s *roundtable.State, last roundtable.Event) []byte {
	t.Helper()
	b, err := json.Marshal(last)
	if err != nil {
		t.Fatal(err)
	}
	head, err := store.EncodeSnapshotHead(s, 0, b)
	if err != nil {
		t.Fatal(err)
	}
	return head
}

// testDamagedSnapshot spoils the snapshot in every way the store can see
// (and gives it an older one, which is still a valid start) and checks
// that Open still rebuilds the table from its whole log.
func testDamagedSnapshot(t *testing.T, b Backend) {
	log := PlayedLog(t, 2)
	cut := len(log) / 2
	snapOf := func(t *testing.T, events []roundtable.Event) []byte {
		return encodeSnapshot(t, roundtabletest.MustReplay(t, events), events[len(events)-1])
	}
	good := func(t *testing.T, id string, seq int) []byte { return snapOf(t, Retable(log, id)[:seq]) }
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
			other := Retable(log, id)[:cut]
			for i := range other {
				other[i].Time = other[i].Time.Add(time.Hour)
			}
			return snapOf(t, other)
		},
		"ahead of log": func(t *testing.T, id string) []byte { return good(t, id, len(log)) },
	}
	s := b.Open(t)
	for name, f := range spoil {
		t.Run(name, func(t *testing.T) {
			id := "t-" + name
			events := Retable(log, id)
			mustAppend(t, s, id, events[:cut])
			if err := s.PutRawSnapshot(id, f(t, id)); err != nil {
				t.Fatal(err)
			}
			want := events[:cut] // the snapshot "ahead of log" is of all events
			if name != "ahead of log" {
				mustAppend(t, s, id, events[cut:])
				want = events
			}
			sameJSON(t, "opened vs replayed", mustOpen(t, s, id), roundtabletest.MustReplay(t, want))
		})
	}
}

// testMissingRound deletes an ended round of a snapshot that stores its
// ended rounds apart.
func testMissingRound(t *testing.T, b Backend) {
	log := PlayedLog(t, 3)
	s := b.Open(t)
	cut := len(log) - 3 // in round 3: rounds 1 and 2 have ended
	mustAppend(t, s, "log", log[:cut-1])
	if err := s.AppendSnapshot(t.Context(), "log", log[cut-1:cut], roundtabletest.MustReplay(t, log[:cut])); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, "log", log[cut:])
	if err := s.DeleteSnapshotRound("log", 2); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.LoadSnapshot(t.Context(), "log"); err == nil {
		t.Error("LoadSnapshot took a snapshot without its round 2")
	}
	sameJSON(t, "opened vs replayed", mustOpen(t, s, "log"), roundtabletest.MustReplay(t, log))
}

// testNoSnapshots opens a table that has no snapshot (a file written
// before snapshots existed).
func testNoSnapshots(t *testing.T, b Backend) {
	log := PlayedLog(t, 2)
	s := b.Open(t)
	mustAppend(t, s, "log", log)
	if err := s.DropSnapshots(); err != nil {
		t.Fatal(err)
	}
	snap, tail, err := s.LoadSnapshot(t.Context(), "log")
	if err != nil || snap != nil || len(tail) != len(log) {
		t.Fatalf("LoadSnapshot = %v, %d events, %v; want no snapshot and the whole log", snap, len(tail), err)
	}
	sameJSON(t, "opened vs replayed", mustOpen(t, s, "log"), roundtabletest.MustReplay(t, log))
}

// testRefill drops the stored snapshots of a table in play (the store may
// still believe its ended rounds stored) and checks that the next snapshot
// stores them again. The table is opened again after the drop: the rounds
// it had archived are in no snapshot, so only its log has them.
func testRefill(t *testing.T, b Backend) {
	s := b.Open(t)
	clock := newClock()
	tbl, err := roundtabletest.StartTable(t.Context(), s, clock, "t1", 16)
	if err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 16; r++ {
		if r == 9 {
			if err := s.DropSnapshots(); err != nil {
				t.Fatal(err)
			}
			if tbl, err = roundtable.Open(t.Context(), s, clock, roundtabletest.SampleTask(), "t1"); err != nil {
				t.Fatal(err)
			}
		}
		if err := roundtabletest.PlayRound(t.Context(), tbl, clock); err != nil {
			t.Fatal(err)
		}
	}
	if snap, _, err := s.LoadSnapshot(t.Context(), "t1"); err != nil || snap == nil || snap.Round < 9 {
		t.Fatalf("LoadSnapshot: %v, %v; want a snapshot after round 9", snap, err)
	}
	played, err := tbl.Full(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "opened vs played", mustOpen(t, s, "t1"), played)
}
