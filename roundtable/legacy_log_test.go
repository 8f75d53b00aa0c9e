package roundtable_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

var updateLegacy = flag.Bool("update-legacy", false, "rewrite testdata/legacy_log.jsonl and legacy_state.json from the current code")

const (
	legacyLog   = "testdata/legacy_log.jsonl"
	legacyState = "testdata/legacy_state.json"
)

// The log in testdata was written by main before protocols (phase
// schedules) existed: it must replay to the same state forever.
func TestLogWrittenBeforeSchedulesStillReplays(t *testing.T) {
	if *updateLegacy {
		writeLegacy(t)
	}
	f, err := os.Open(filepath.FromSlash(legacyLog))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var events []roundtable.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e roundtable.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("decode: %v", err)
		}
		events = append(events, e)
	}
	s, err := roundtable.Replay(events)
	if err != nil {
		t.Fatalf("Replay: %v", err)
	}
	want, err := os.ReadFile(filepath.FromSlash(legacyState))
	if err != nil {
		t.Fatal(err)
	}
	var got, wantState map[string]any
	b, _ := json.Marshal(s)
	must(t, json.Unmarshal(b, &got))
	must(t, json.Unmarshal(want, &wantState))
	// The recorded state kept its keys as a map of key to seq; they read
	// back as a KeySet.
	var legacy roundtable.State
	must(t, json.Unmarshal(want, &legacy))
	if len(legacy.Keys) == 0 || !slices.Equal(legacy.Keys, s.Keys) {
		t.Errorf("the recorded keys read as %v; the replayed state has %v", legacy.Keys, s.Keys)
	}
	delete(wantState, "keys")
	for k := range got { // fields State gained since the log was recorded
		if _, ok := wantState[k]; !ok {
			delete(got, k)
		}
	}
	gb, _ := json.MarshalIndent(got, "", " ")
	wb, _ := json.MarshalIndent(wantState, "", " ")
	if !bytes.Equal(gb, wb) {
		t.Errorf("the replayed state differs from the one main recorded:\n got %s\nwant %s", gb, wb)
	}
	if s.Status != roundtable.StatusEnded || len(s.Rounds) != 3 || s.Output == nil {
		t.Errorf("status %s, %d rounds, output %v", s.Status, len(s.Rounds), s.Output)
	}
}

func writeLegacy(t *testing.T) {
	ctx := context.Background()
	st := roundtabletest.NewMemStore()
	tb, err := roundtabletest.PlayTable(ctx, st, roundtabletest.NewClock(t0), "legacy", 3)
	must(t, err)
	events, err := st.Load(ctx, "legacy")
	must(t, err)
	var buf bytes.Buffer
	for _, e := range events {
		b, err := json.Marshal(e)
		must(t, err)
		buf.Write(append(b, '\n'))
	}
	must(t, os.WriteFile(filepath.FromSlash(legacyLog), buf.Bytes(), 0o644))
	b, err := json.MarshalIndent(tb.Snapshot(), "", " ")
	must(t, err)
	must(t, os.WriteFile(filepath.FromSlash(legacyState), b, 0o644))
}
