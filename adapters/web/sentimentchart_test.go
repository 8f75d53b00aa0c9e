package web

import (
	"bytes"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// TestSentimentChartDrawsEachItemAndEscapesItsName: one line per item,
// a point per round that has a mean (-1 at the bottom, 1 at the top), a
// round nobody answered left out; a hostile item name reaches the page
// only as escaped text, never inside an SVG attribute.
func TestSentimentChartDrawsEachItemAndEscapesItsName(t *testing.T) {
	hostile := `Dana"><script>alert(1)</script>`
	c := sentimentChart([]string{hostile, "Eli"}, [][]float64{{1, -1}, nil, {0, 0.5}}, &roundtable.Scale{Min: -1, Max: 1})
	if c.Empty || len(c.Series) != 2 || len(c.Rounds) != 3 {
		t.Fatalf("chart %+v; want 2 series over 3 rounds", c)
	}
	d := c.Series[0].Dots
	if len(d) != 2 || d[0].Y != chartTop || d[1].Y != chartTop+chartH/2 || d[1].X <= d[0].X {
		t.Errorf("the first item's points are %+v; want round 1 at the top, round 3 in the middle, round 2 left out", d)
	}
	if e := c.Series[1].Dots; e[0].Y != chartTop+chartH {
		t.Errorf("Eli's -1 is drawn at y %v; want the bottom, %v", e[0].Y, chartTop+chartH)
	}
	var buf bytes.Buffer
	if err := parseTemplates().ExecuteTemplate(&buf, "linechart", c); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "<script>") || !strings.Contains(out, "&lt;script&gt;") {
		t.Errorf("the item's name is not escaped:\n%s", out)
	}
	for _, tag := range strings.Split(out, "<")[1:] {
		if attrs, _, _ := strings.Cut(tag, ">"); strings.Contains(attrs, "Dana") {
			t.Errorf("an item's name is in an attribute: <%s>", attrs)
		}
	}
	if empty := sentimentChart([]string{"Eli"}, [][]float64{nil}, nil); !empty.Empty {
		t.Errorf("a chart of no answers is not empty: %+v", empty)
	}
}
