package export_test

import (
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/export"
)

func TestPseudonymizeScrubsLabelsNamingPeople(t *testing.T) {
	cfg := roundtable.Config{Rule: "plurality", Rounds: 1, Labels: map[string]string{"starter": "discord:42", "channel": "999"},
		Participants: []roundtable.Participant{{ID: "discord:42", Name: "Dana", Kind: roundtable.Human, Platform: "42"}}}
	evs := []roundtable.Event{{Table: "t", Seq: 1, Time: time.Unix(0, 0), Data: roundtable.TableCreated{Config: cfg}}}
	var b strings.Builder
	if err := export.WriteJSONL(&b, evs, export.Options{Pseudonymize: true, Viewer: researcher}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "discord:42") || strings.Contains(out, "Dana") || !strings.Contains(out, `"starter":"human-1"`) || !strings.Contains(out, `"channel":"999"`) {
		t.Errorf("labels not pseudonymised: %s", out)
	}
}

// TestPseudonymizeScrubsAStarterWhoIsNotSeated: whoever started a table
// without joining it, and stopped it, is a person in every field too.
func TestPseudonymizeScrubsAStarterWhoIsNotSeated(t *testing.T) {
	cfg := roundtable.Config{Rule: "plurality", Rounds: 1, Labels: map[string]string{"starter": "slack:U777", "channel": "C1"},
		Participants: []roundtable.Participant{{ID: "bot-1", Name: "Ada", Kind: roundtable.Bot}}}
	at := time.Unix(0, 0)
	evs := []roundtable.Event{
		{Table: "t", Seq: 1, Time: at, Data: roundtable.TableCreated{Config: cfg}},
		{Table: "t", Seq: 2, Time: at, Actor: "slack:U777", Key: "slack:stop:U777", Data: roundtable.TableEnded{Reason: "stopped"}},
	}
	var b strings.Builder
	if err := export.WriteJSONL(&b, evs, export.Options{Pseudonymize: true, Viewer: researcher}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "U777") || !strings.Contains(out, `"starter":"human-1"`) || !strings.Contains(out, `"actor":"human-1"`) ||
		!strings.Contains(out, `"channel":"C1"`) || !strings.Contains(out, `"id":"bot-1","name":"Ada"`) {
		t.Errorf("a starter who is not seated is not pseudonymised everywhere:\n%s", out)
	}
}

// TestExportShowsReasoningToResearchersOnly: an ended table's export
// carries private reasoning for a researcher, and for nobody else.
func TestExportShowsReasoningToResearchersOnly(t *testing.T) {
	events := sampleLog(t)
	for _, c := range []struct {
		v    roundtable.Viewer
		want bool
	}{{researcher, true}, {roundtable.Viewer{}, false}, {roundtable.Viewer{Participant: "alice"}, false}, {roundtable.Viewer{Participant: "bot-1"}, true}} {
		var b strings.Builder
		if err := export.WriteJSONL(&b, events, export.Options{Viewer: c.v}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "parks score higher"); got != c.want {
			t.Errorf("export for %+v has bot-1's reasoning: %v, want %v", c.v, got, c.want)
		}
		if got := strings.Contains(b.String(), "nothing to add"); got != c.want && c.v.Participant != "bot-1" {
			t.Errorf("export for %+v has bot-2's reasoning: %v, want %v", c.v, got, c.want)
		}
	}
}
