package protocol_test

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/questionnaire"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/roundtable"
)

// Build names the protocols it knows when asked for another, and the
// setting at fault when a protocol is given another one's setting.
func TestBuildRefusesUnknownProtocolsAndOthersSettings(t *testing.T) {
	for _, c := range []struct {
		s    protocol.Settings
		want string
	}{
		{protocol.Settings{Key: "--protocol", Protocol: "fishbowl"}, `--protocol: unknown preset "fishbowl" (want chatroom, dyads, panel, questionnaire or roundtable)`},
		{protocol.Settings{Key: "table[0].protocol", Protocol: "dyads", Complement: "no"}, `table[0].complement: a setting of the chatroom protocol, not of "dyads" (table[0].protocol)`},
		{protocol.Settings{Key: "--protocol", Control: "no-interaction"}, `--control: a setting of the dyads protocol, not of "roundtable" (--protocol)`},
		{protocol.Settings{Key: "--protocol", Protocol: "chatroom", Alphas: []float64{0.1, 0.2}}, `--alpha: a setting of the panel protocol`},
		{protocol.Settings{Key: "--protocol", Protocol: "dyads", Memory: "photographic"}, `--memory: "photographic" is not cumulative or reflective`},
		{protocol.Settings{Key: "--protocol", Protocol: "dyads", Claim: "flat-earth", Question: "q"}, `--claim: give a built-in claim or --question, not both`},
		{protocol.Settings{Key: "--protocol", Protocol: "questionnaire", ContextChars: -1}, `--context-chars: -1 is negative`},
	} {
		if _, err := protocol.Build(c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.s, err, c.want)
		}
	}
}

// The questionnaire owns the chatroom's settings, and a protocol's
// settings are recorded where analyze finds them.
func TestBuildRecordsTheConditions(t *testing.T) {
	pr, err := protocol.Build(protocol.Settings{Key: "--protocol", Protocol: "questionnaire", Question: "q", Complement: "not q"})
	if err != nil || pr.Params["complement"] != "not q" {
		t.Fatalf("questionnaire: %v, %+v", err, pr)
	}
	pr, err = protocol.Build(protocol.Settings{Key: "--protocol", Protocol: "dyads", Claim: "flat-earth", Framing: "false"})
	if err != nil || pr.Round[1].Scale.Question != "Theory XYZ claims that the Earth is flat." || pr.Params["claim"] != "flat-earth" || pr.Params["memory"] != "cumulative" {
		t.Fatalf("dyads: %v, %+v", err, pr)
	}
	if pr, err := protocol.Build(protocol.Settings{}); pr != nil || err != nil {
		t.Errorf("RoundTable's own schedule: %+v, %v", pr, err)
	}
}
