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
	if err := export.WriteJSONL(&b, evs, export.Options{Pseudonymize: true}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "discord:42") || strings.Contains(out, "Dana") || !strings.Contains(out, `"starter":"human-1"`) || !strings.Contains(out, `"channel":"999"`) {
		t.Errorf("labels not pseudonymised: %s", out)
	}
}
