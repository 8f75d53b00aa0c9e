package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
)

// storeWith writes, in a new database, an ended table "good", a table
// "open" in its message phase with a sealed message, and a table
// "broken" whose log ends with an event that does not replay.
func storeWith(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "roundtable.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clock := roundtabletest.NewClock(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	if _, err := roundtabletest.PlayTable(ctx, db, clock, "good", 1); err != nil {
		t.Fatal(err)
	}
	open, err := roundtable.Create(ctx, db, clock, roundtabletest.SampleTask(), "open", roundtabletest.SampleConfig(2))
	if err != nil {
		t.Fatal(err)
	}
	if err := open.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := open.Do(ctx, roundtable.Say{Actor: "alice", Text: "SEALED-MARKER"}); err != nil {
		t.Fatal(err)
	}
	broken, err := roundtable.Create(ctx, db, clock, roundtabletest.SampleTask(), "broken", roundtabletest.SampleConfig(1))
	if err != nil {
		t.Fatal(err)
	}
	bad := roundtable.Event{Table: "broken", Seq: broken.Snapshot().Seq + 1, Time: clock.Now(), Data: roundtable.DecisionMade{Round: 0}}
	if err := db.Append(ctx, "broken", []roundtable.Event{bad}); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestTablesMarksADamagedTable(t *testing.T) {
	path := storeWith(t)
	code, out, errOut := run(t, "", "tables", "--db", path)
	if code != 0 {
		t.Fatalf("tables: exit %d: %s", code, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		damaged := strings.Contains(line, "damaged: event 2 (decision_made): a decision of round 0")
		if strings.HasPrefix(line, "broken ") != damaged {
			t.Errorf("line %q: damaged mark %v", line, damaged)
		}
	}
	if !strings.Contains(out, "good ") || !strings.Contains(out, "open ") {
		t.Errorf("tables lists:\n%s", out)
	}
}

func TestExportOfARunningTableWithholdsWhatIsSealed(t *testing.T) {
	path := storeWith(t)
	code, out, errOut := run(t, "", "export", "--db", path, "--table", "open")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "SEALED-MARKER") || !strings.Contains(out, `"type":"withheld","actor":"alice"`) {
		t.Errorf("export of a running table:\n%s", out)
	}
	_, out, _ = run(t, "", "export", "--db", path, "--table", "good")
	if !strings.Contains(out, "parks score higher") {
		t.Errorf("the export of an ended table lacks the agents' reasoning:\n%.500s", out)
	}
}

// TestAnnotateMeasuresOnlyRevealedMessages: the sealed message of a
// running table's open phase is not measured (nor sent to a model) until
// the phase closes.
func TestAnnotateMeasuresOnlyRevealedMessages(t *testing.T) {
	path := storeWith(t)
	code, out, errOut := run(t, "", "annotate", "--db", path, "--table", "open", "--instrument", "readability")
	if code != 0 || strings.Contains(out, `"open/3"`) {
		t.Errorf("annotate of a running table: exit %d, %s\n%s", code, errOut, out)
	}
	code, out, errOut = run(t, "", "annotate", "--db", path, "--table", "good", "--instrument", "readability")
	if code != 0 || strings.Count(out, "\n") < 4 {
		t.Errorf("annotate of an ended table: exit %d, %s\n%s", code, errOut, out)
	}
}

// TestExportTakesAWebRoomOrItsAddress: --table takes a table ID, the ID
// of the web room it plays in, or the room's address as a browser shows
// it; the help names the flag's value ID.
func TestExportTakesAWebRoomOrItsAddress(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "roundtable.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clock := roundtabletest.NewClock(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	if _, err := roundtabletest.PlayTable(ctx, db, clock, "t-7f3a", 1); err != nil {
		t.Fatal(err)
	}
	if err := db.Bind(ctx, "web:r9b1c", "t-7f3a"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, arg := range []string{"t-7f3a", "r9b1c", "http://127.0.0.1:8080/r/r9b1c?k=abc", "http://127.0.0.1:8080/r/r9b1c/dashboard"} {
		code, out, errOut := run(t, "", "export", "--db", path, "--table", arg)
		if code != 0 || !strings.Contains(out, `"table":"t-7f3a"`) {
			t.Errorf("export --table %s: exit %d, %d bytes: %s", arg, code, len(out), errOut)
		}
	}
	if _, out, _ := run(t, "", "export", "--help"); !strings.Contains(out, "--table ID") {
		t.Errorf("export --help does not show --table ID:\n%s", out)
	}
}
