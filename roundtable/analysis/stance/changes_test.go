package stance_test

import (
	"slices"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
)

// A conservative echo chamber (everyone assigned -2), four messages: one
// at -2 (no change), one at 1 (a change toward the statement's pole), one
// without an opinion, one at 0 (toward the statement again); and a
// liberal (2) read at 1, toward the complement. By hand: 5 classified, 4
// opinions, 3 changes, 2 toward the statement and 1 toward the
// complement; the matrix holds -2->-2, -2->1, -2->0 and 2->1 once each.
func TestChangesTallyDirectionAndMatrix(t *testing.T) {
	var c stance.Changes
	dirs := []int{
		c.Add(-2, -2, true), c.Add(-2, 1, true), c.Add(-2, 2, false), c.Add(-2, 0, true), c.Add(2, 1, true),
	}
	if want := []int{0, 1, 0, 1, -1}; !slices.Equal(dirs, want) {
		t.Errorf("directions %v, want %v", dirs, want)
	}
	if c.Classified != 5 || c.Opinions != 4 || c.Changed != 3 || c.TowardStatement != 2 || c.TowardComplement != 1 {
		t.Errorf("tally %+v", c)
	}
	sc := c.Scalars()
	for k, want := range map[string]float64{"matrix/-2->-2": 1, "matrix/-2->1": 1, "matrix/-2->0": 1, "matrix/2->1": 1, "changes": 3} {
		if sc[k] != want {
			t.Errorf("%s = %v, want %v (%v)", k, sc[k], want, sc)
		}
	}
	if _, ok := sc["matrix/-2->2"]; ok {
		t.Error("a message without an opinion is in the matrix")
	}
	var total stance.Changes
	total.Merge(c)
	total.Merge(c)
	if total.Changed != 6 || total.Matrix[0][3] != 2 {
		t.Errorf("merged twice: %+v", total)
	}
	if rows := c.MatrixRows("t1"); len(rows) != 25 || rows[0][0] != "t1" || rows[0][1] != "2" || rows[1][3] != "1" {
		t.Errorf("matrix rows %v", rows[:2])
	}
}
