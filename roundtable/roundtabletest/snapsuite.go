package roundtabletest

import (
	"fmt"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// SnapshotSuite checks that a roundtable.SnapshotStore keeps its contract:
// a table opened from its latest snapshot and the events after it is the
// table replayed from its whole log, wherever the snapshots were taken.
// open must return a new, empty store for each call.
func SnapshotSuite(t *testing.T, open func(t *testing.T) roundtable.SnapshotStore) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s roundtable.SnapshotStore)
	}{
		{"SnapshotAndTailAreTheLog", testSnapshotCuts},
		{"ModeratorSnapshotsEverySnapshotEvery", testModeratorSnapshots},
		{"NoSnapshotMeansTheWholeLog", testNoSnapshot},
		{"SnapshotMustFollowItsEvents", testSnapshotMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, open(t)) })
	}
}

// playedLog returns the events of a played sample table of rounds rounds,
// given to table id.
func playedLog(t *testing.T, id string, rounds int) []roundtable.Event {
	t.Helper()
	mem := NewMemStore()
	if _, err := PlayTable(t.Context(), mem, newClock(), id, rounds); err != nil {
		t.Fatal(err)
	}
	return mustLoad(t, mem, id)
}

// MustReplay replays events into a state, failing t if they do not fold.
func MustReplay(t testing.TB, events []roundtable.Event) *roundtable.State {
	t.Helper()
	s, err := roundtable.Replay(events)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkOpens opens table id from s and compares it with want.
func checkOpens(t *testing.T, s roundtable.Store, id string, want *roundtable.State) {
	t.Helper()
	tbl, err := roundtable.Open(t.Context(), s, newClock(), SampleTask(), id)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tbl.Full(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if g, w := MustJSON(t, got), MustJSON(t, want); g != w {
		t.Fatalf("table %s opened as\n%s\nwant\n%s", id, g, w)
	}
}

// testSnapshotCuts stores a snapshot at every cut point of a log, and
// another 30 events later, and checks what LoadSnapshot and Open return.
func testSnapshotCuts(t *testing.T, s roundtable.SnapshotStore) {
	n := len(playedLog(t, "x", 3))
	for cut := 1; cut <= n; cut++ {
		id := fmt.Sprintf("cut-%03d", cut)
		events := playedLog(t, id, 3)
		cuts := []int{cut}
		if cut+30 <= n {
			cuts = append(cuts, cut+30)
		}
		done := 0
		for _, c := range cuts {
			if c > done+1 {
				mustAppend(t, s, id, events[done:c-1])
			}
			if err := s.AppendSnapshot(t.Context(), id, events[c-1:c], MustReplay(t, events[:c])); err != nil {
				t.Fatal(err)
			}
			done = c
		}
		if done < n {
			mustAppend(t, s, id, events[done:])
		}
		snap, tail, err := s.LoadSnapshot(t.Context(), id)
		if err != nil || snap == nil || snap.Seq != uint64(done) || len(tail) != n-done {
			t.Fatalf("cut %d: LoadSnapshot = %d events, %v; want a snapshot at %d and %d events", cut, len(tail), err, done, n-done)
		}
		checkOpens(t, s, id, MustReplay(t, events))
	}
}

// testModeratorSnapshots plays a table long enough for several snapshots
// through the moderator and checks where the latest is.
func testModeratorSnapshots(t *testing.T, s roundtable.SnapshotStore) {
	tbl, err := PlayTable(t.Context(), s, newClock(), "long", 15)
	if err != nil {
		t.Fatal(err)
	}
	final, err := tbl.Full(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if final.Seq < 2*roundtable.SnapshotEvery {
		t.Fatalf("the table has only %d events; play more rounds", final.Seq)
	}
	snap, tail, err := s.LoadSnapshot(t.Context(), "long")
	if err != nil || snap == nil {
		t.Fatalf("LoadSnapshot: %v, %v", snap, err)
	}
	// A batch that reaches a multiple of SnapshotEvery carries the
	// snapshot, so the latest is at most one batch past the last multiple.
	if last := final.Seq / roundtable.SnapshotEvery * roundtable.SnapshotEvery; snap.Seq < last || snap.Seq > last+3 || snap.Seq+uint64(len(tail)) != final.Seq {
		t.Errorf("snapshot at seq %d with %d events after it; the log ends at %d", snap.Seq, len(tail), final.Seq)
	}
	checkOpens(t, s, "long", final)
}

func testNoSnapshot(t *testing.T, s roundtable.SnapshotStore) {
	log := playedLog(t, "log", 2)
	mustAppend(t, s, "log", log)
	snap, tail, err := s.LoadSnapshot(t.Context(), "log")
	if err != nil || snap != nil || len(tail) != len(log) {
		t.Fatalf("LoadSnapshot = %v, %d events, %v; want no snapshot and the whole log", snap, len(tail), err)
	}
	checkOpens(t, s, "log", MustReplay(t, log))
	if _, _, err := s.LoadSnapshot(t.Context(), "missing"); roundtable.ErrorCode(err) != roundtable.NotFound {
		t.Errorf("LoadSnapshot of a missing table: %v, want NotFound", err)
	}
}

func testSnapshotMismatch(t *testing.T, s roundtable.SnapshotStore) {
	log := playedLog(t, "log", 1)
	for name, snap := range map[string]*roundtable.State{
		"none":        nil,
		"earlier":     MustReplay(t, log[:2]),
		"other table": MustReplay(t, playedLog(t, "other", 1)[:3]),
	} {
		err := s.AppendSnapshot(t.Context(), "log", log[:3], snap)
		if roundtable.ErrorCode(err) != roundtable.Invalid {
			t.Errorf("%s: AppendSnapshot = %v, want Invalid", name, err)
		}
	}
	if _, err := s.Load(t.Context(), "log"); roundtable.ErrorCode(err) != roundtable.NotFound {
		t.Errorf("a refused snapshot stored its events: Load = %v", err)
	}
}

func mustAppend(t *testing.T, s roundtable.Store, id string, events []roundtable.Event) {
	t.Helper()
	if err := s.Append(t.Context(), id, events); err != nil {
		t.Fatal(err)
	}
}
