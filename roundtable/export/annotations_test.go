package export_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/export"
)

func TestWriteAnnotationsPseudonymisesSelfReports(t *testing.T) {
	evs := []roundtable.Event{{Table: "t1", Seq: 1, Data: roundtable.TableCreated{Config: roundtable.Config{Participants: []roundtable.Participant{
		{ID: "slack:U1", Name: "Alice", Kind: roundtable.Human}, {ID: "ada", Name: "Ada", Kind: roundtable.Bot}}}}}}
	anns := []roundtable.Annotation{
		{Table: "t1", Seq: 2, Instrument: "sentiment", Model: "vader", Result: json.RawMessage(`{"score":0.5}`)},
		{Table: "t1", Seq: 3, Instrument: "self-report", Model: "self:slack:U1", Result: json.RawMessage(`{"participant":"slack:U1","round":1,"level":2}`)},
	}
	var b bytes.Buffer
	if err := export.WriteAnnotations(&b, evs, anns, export.Options{Pseudonymize: true}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "U1") || !strings.Contains(out, `"model":"self:human-1"`) || !strings.Contains(out, `"participant":"human-1"`) {
		t.Fatalf("pseudonymised audit:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var a roundtable.Annotation
	if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &a) != nil || a.Instrument != "sentiment" {
		t.Fatalf("want two annotation lines, got:\n%s", out)
	}
	b.Reset()
	if err := export.WriteAnnotations(&b, evs, anns, export.Options{}); err != nil || !strings.Contains(b.String(), "self:slack:U1") {
		t.Fatalf("names kept: %v\n%s", err, b.String())
	}
}
