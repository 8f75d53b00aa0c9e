package bot

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// The end post says why a table ended, in words, and a table that never
// votes is not said to have decided nothing.
func TestRenderEndSaysWhyInWords(t *testing.T) {
	panel := roundtable.Panel(roundtable.PresetOptions{Items: []string{"Ann"}})
	for _, c := range []struct {
		s    roundtable.State
		want string
	}{
		{roundtable.State{EndReason: roundtable.EndRounds}, "**The table has ended after the last round.** Nothing was decided."},
		{roundtable.State{EndReason: roundtable.EndConvergence, Config: roundtable.Config{Protocol: panel}}, "**The table has ended because opinions stopped moving.**"},
		{roundtable.State{EndReason: roundtable.EndAgreement, Output: &roundtable.Candidate{Proposal: roundtable.Proposal{Text: "Soup"}}},
			"**The table has ended because everyone agreed.** Decision: "},
	} {
		if got := renderEnd(&c.s); !strings.HasPrefix(got, c.want) || (c.s.Config.Protocol != nil && got != c.want) {
			t.Errorf("renderEnd(%s) = %q; want %q", c.s.EndReason, got, c.want)
		}
	}
}
