package export_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/export"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// researcher sees everything of an ended table, as the tests of the
// formats need.
var researcher = roundtable.Viewer{Researcher: true}

// sampleLog plays a two-round sample table and returns its log.
func sampleLog(t *testing.T) []roundtable.Event {
	t.Helper()
	store := roundtabletest.NewMemStore()
	clock := roundtabletest.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	if _, err := roundtabletest.PlayTable(t.Context(), store, clock, "lot", 2); err != nil {
		t.Fatal(err)
	}
	events, err := store.Load(t.Context(), "lot")
	if err != nil {
		t.Fatal(err)
	}
	return events
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]export.Format{"jsonl": export.JSONL, "csv": export.CSV} {
		if got, err := export.ParseFormat(in); got != want || err != nil {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "json", "CSV", "xlsx"} {
		if _, err := export.ParseFormat(in); err == nil {
			t.Errorf("ParseFormat(%q) succeeded", in)
		}
	}
}

func TestJSONLDecodesToTheLog(t *testing.T) {
	events := sampleLog(t)
	var buf bytes.Buffer
	if err := export.WriteJSONL(&buf, events, export.Options{Viewer: researcher}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(events) {
		t.Fatalf("%d lines for %d events", len(lines), len(events))
	}
	for i, line := range lines {
		var e roundtable.Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if g, w := mustJSON(t, e), mustJSON(t, events[i]); g != w {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, g, w)
		}
	}
}

func TestCSVRows(t *testing.T) {
	events := sampleLog(t)
	rows := readCSV(t, events, export.Options{Viewer: researcher})
	if len(rows) != len(events)+1 {
		t.Fatalf("%d rows for %d events and a header", len(rows), len(events))
	}
	if got := strings.Join(rows[0], ","); got != "table,seq,time,type,actor,round,phase,summary,data" {
		t.Errorf("header = %s", got)
	}
	summaries := map[string]bool{}
	for i, row := range rows[1:] {
		e := events[i]
		if row[1] != jsonNum(e.Seq) || row[3] != e.Type() || row[4] != e.Actor {
			t.Errorf("row %d = %q, want seq %d, type %s, actor %q", i+1, row[:5], e.Seq, e.Type(), e.Actor)
		}
		if g, w := row[8], mustJSON(t, e.Data); g != w {
			t.Errorf("row %d data = %s, want %s", i+1, g, w)
		}
		summaries[row[3]+"|"+row[5]+"|"+row[6]+"|"+row[7]] = true
	}
	for _, want := range []string{
		"message_posted|1|message|'=1+1 trees, Alice", // a formula, defused
		"proposal_made|2|proposal|Plant trees",
		"ballot_cast|1|vote|A",
		"decision_made|2|vote|winner A: Plant trees",
		"table_ended|2||ended (rounds): Plant trees",
		"participant_joined|||Bob Jones joined (human)",
		"phase_opened|1|vote|round 1 vote phase; candidates A, B",
	} {
		if !summaries[want] {
			t.Errorf("no row with type|round|phase|summary = %s", want)
		}
	}
}

func TestCSVDefusesFormulas(t *testing.T) {
	e := roundtable.Event{Table: "=cmd", Seq: 1, Actor: "@bob", Data: roundtable.MessagePosted{Round: 1, Text: "-2+3"}}
	rows := readCSV(t, []roundtable.Event{e}, export.Options{Viewer: roundtable.Viewer{Participant: "@bob"}})
	for _, cell := range []string{rows[1][0], rows[1][4], rows[1][7]} {
		if !strings.HasPrefix(cell, "'") {
			t.Errorf("cell %q is not defused", cell)
		}
	}
}

func readCSV(t *testing.T, events []roundtable.Event, opt export.Options) [][]string {
	t.Helper()
	var buf bytes.Buffer
	if err := export.WriteCSV(&buf, events, opt); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("read back csv: %v", err)
	}
	return rows
}

func jsonNum(n uint64) string { b, _ := json.Marshal(n); return string(b) }

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
