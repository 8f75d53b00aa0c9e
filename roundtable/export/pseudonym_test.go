package export_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/export"
)

// freeText reports whether a JSON field holds what people write (or, for
// "key", a candidate's canonical text); free text is not scrubbed.
func freeText(field string) bool {
	switch field {
	case "text", "reasoning", "reason", "topic", "title", "key":
		return true
	}
	return false
}

func TestPseudonymizedJSONLNamesNoHuman(t *testing.T) {
	events := sampleLog(t)
	var buf bytes.Buffer
	if err := export.WriteJSONL(&buf, events, export.Options{Pseudonymize: true, Viewer: researcher}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(events) {
		t.Fatalf("%d lines for %d events", len(lines), len(events))
	}
	for i, line := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatal(err)
		}
		if v["actor"] == "human-1" || v["actor"] == "human-2" {
			if v["key"] != nil {
				t.Errorf("line %d: a human's event keeps key %v", i+1, v["key"])
			}
		}
		walk(t, i+1, "", v)
	}
	for _, want := range []string{
		`"id":"human-1","name":"human-1","kind":"human"`, `"id":"human-2","name":"human-2","kind":"human"`,
		`"actor":"human-1"`, `"voter":"human-2"`, `"proposers":["human-1","human-2"]`, `"to":["bot-1","human-2"]`,
		`"name":"Ada"`, `"actor":"bot-1"`, `"key":"bot-1:message:lot:r1"`, // agents untouched
		`Ada, Bob Jones says trees. Alice Smith agrees.`, // free text untouched
	} {
		if !strings.Contains(out, want) {
			t.Errorf("pseudonymised log lacks %s", want)
		}
	}
}

// walk fails the test for any structured string naming a human.
func walk(t *testing.T, line int, field string, v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			checkString(t, line, "key of "+field, k)
			walk(t, line, k, x)
		}
	case []any:
		for _, x := range v {
			walk(t, line, field, x)
		}
	case string:
		if !freeText(field) {
			checkString(t, line, field, v)
		}
	}
}

// checkString fails the test if s has what identifies a sample human.
func checkString(t *testing.T, line int, field, s string) {
	for _, h := range []string{"alice", "bob", "Alice Smith", "Bob Jones", "discord:1001", "slack:U2002"} {
		if strings.Contains(s, h) {
			t.Errorf("line %d: field %s = %q names %q", line, field, s, h)
		}
	}
}

func TestPseudonymizedCSVNamesNoHuman(t *testing.T) {
	events := sampleLog(t)
	rows := readCSV(t, events, export.Options{Pseudonymize: true, Viewer: researcher})
	if len(rows) != len(events)+1 {
		t.Fatalf("%d rows for %d events and a header", len(rows), len(events))
	}
	for i, row := range rows[1:] {
		checkString(t, i+1, "actor", row[4])
		var data any
		if err := json.Unmarshal([]byte(row[8]), &data); err != nil {
			t.Fatalf("row %d data: %v", i+1, err)
		}
		walk(t, i+1, "data", data)
		if row[3] == "participant_joined" && row[7] != "human-2 joined (human)" {
			t.Errorf("row %d summary = %q, want the pseudonym", i+1, row[7])
		}
	}
}

func TestPseudonymizeLeavesInputAlone(t *testing.T) {
	events := sampleLog(t)
	before := mustJSON(t, events)
	export.Pseudonymize(events)
	if after := mustJSON(t, events); after != before {
		t.Error("Pseudonymize changed its input")
	}
}

func TestPseudonymsFollowFirstAppearance(t *testing.T) {
	config := func(id string, ps ...roundtable.Participant) roundtable.Event {
		return roundtable.Event{Table: id, Seq: 1, Data: roundtable.TableCreated{Config: roundtable.Config{Participants: ps}}}
	}
	carol := roundtable.Participant{ID: "carol", Name: "Carol", Kind: roundtable.Human}
	dan := roundtable.Participant{ID: "dan", Name: "Dan", Kind: roundtable.Human}
	bot := roundtable.Participant{ID: "bot", Name: "Bot", Kind: roundtable.Bot}
	out := export.Pseudonymize([]roundtable.Event{config("t1", bot, dan), config("t2", carol, dan)})
	got := []roundtable.Participant{}
	for _, e := range out {
		got = append(got, e.Data.(roundtable.TableCreated).Config.Participants...)
	}
	want := `[{"id":"bot","name":"Bot","kind":"agent"},{"id":"human-1","name":"human-1","kind":"human"},` +
		`{"id":"human-2","name":"human-2","kind":"human"},{"id":"human-1","name":"human-1","kind":"human"}]`
	if g := mustJSON(t, got); g != want {
		t.Errorf("participants\n got %s\nwant %s", g, want)
	}
}
