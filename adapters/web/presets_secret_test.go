package web

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

func TestPresetSetsTheBallotsChoice(t *testing.T) {
	for want, sec := range map[string]roundtable.Secrecy{
		"no": {}, "yes": {Ballots: true}, "research": {Ballots: true, Research: true},
	} {
		s := TableSettings{Config: roundtable.Config{Rule: "plurality", Secret: sec}}
		if got := s.formValues()["secret"]; got != want {
			t.Errorf("secret %+v: form value %q, want %q", sec, got, want)
		}
		if !strings.Contains(s.presetJSON(nil), `"secret":"`+want+`"`) {
			t.Errorf("preset JSON %s lacks the ballots choice", s.presetJSON(nil))
		}
	}
}
