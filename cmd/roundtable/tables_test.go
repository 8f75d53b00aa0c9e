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

// TestTablesShowTitlesAndStartsAndExportTakesARoom lists a waiting table
// with its title and "waiting", a running one with its start time, and
// exports a table by its web room's ID as by its table ID; a name that
// is neither is refused, saying so.
func TestTablesShowTitlesAndStartsAndExportTakesARoom(t *testing.T) {
	ctx := context.Background()
	path := storeWith(t)
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clock := roundtabletest.NewClock(time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC))
	cfg := roundtabletest.SampleConfig(1)
	cfg.Title = "Field trip, class 4B"
	if _, err := roundtable.Create(ctx, db, clock, roundtabletest.SampleTask(), "gathering", cfg); err != nil {
		t.Fatal(err)
	}
	if err := db.Bind(ctx, "web:r7kq2", "open"); err != nil {
		t.Fatal(err)
	}
	db.Close()

	_, out, _ := run(t, "", "tables", "--db", path)
	if line := lineOf(out, "gathering"); !strings.Contains(line, "Field trip, class 4B") || !strings.Contains(line, "waiting") {
		t.Errorf("the waiting table is listed as %q", line)
	}
	if line := lineOf(out, "open"); !strings.Contains(line, "Empty lot") || strings.Contains(line, "waiting") || strings.Count(line, "2026-11-24 09:") != 2 {
		t.Errorf("the running table is listed as %q", line)
	}
	_, byID, _ := run(t, "", "export", "--db", path, "--table", "open")
	for _, room := range []string{"r7kq2", "/r/r7kq2", "web:r7kq2"} {
		code, out, errOut := run(t, "", "export", "--db", path, "--table", room)
		if code != 0 || out != byID {
			t.Errorf("export --table %s: exit %d %s; not the export of table open", room, code, errOut)
		}
	}
	code, _, errOut := run(t, "", "export", "--db", path, "--table", "nosuch")
	if code == 0 || !strings.Contains(errOut, "no table nosuch, nor a room or channel of that name") {
		t.Errorf("export --table nosuch: exit %d: %s", code, errOut)
	}
}
