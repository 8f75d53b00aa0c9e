package web

import (
	"context"
	"fmt"
	"math"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Charts are inline SVG drawn from numbers computed here; the template
// only places them, so no user text reaches an SVG attribute.

// chart is a bar chart of values in [0, 1], one bar per round, with an
// optional second series drawn as dots.
type chart struct {
	Title  string
	YLabel string // what the bars measure, along the y axis
	Width  int
	Height int
	Bars   []bar
	Empty  bool
	Note   string // said under the chart, e.g. that nothing was accepted
	Legend []legendItem
}

// legendItem explains a bar class.
type legendItem struct {
	Class, Label string
}

type bar struct {
	X, Y, W, H float64 // the bar
	LX         float64 // the label's x
	Label      string  // the round number
	Tip        string  // what the bar says, for screen readers and hover
	Class      string
	DotY       float64 // the second series (agreement); <0 for none
}

// Geometry of the charts.
const (
	chartH   = 200.0
	chartTop = 12.0
	barW     = 32.0
	barGap   = 14.0
	chartPad = 64.0
)

// roundPoint is what the rounds chart shows of one round.
type roundPoint struct {
	Round     int
	Accepted  bool
	Agreement float64 // share of counted ballots backing the winner
}

// roundsChart draws agreement per round, with accepted rounds filled.
func roundsChart(pts []roundPoint) chart {
	c := newChart("Agreement per round: the share of counted ballots that backed the winner", len(pts))
	c.YLabel = "agreement"
	c.Legend = []legendItem{{"accepted", "a proposal was accepted"}, {"rejected", "no winner"}}
	c.Note = "No round has accepted a proposal yet."
	for i, pt := range pts {
		b := c.bar(i, pt.Round, pt.Agreement)
		b.Class = "rejected"
		status := "no winner"
		if pt.Accepted {
			b.Class, status, c.Note = "accepted", "accepted", ""
		}
		b.Tip = fmt.Sprintf("Round %d: %s, agreement %.0f%%", pt.Round, status, 100*pt.Agreement)
		c.Bars = append(c.Bars, b)
	}
	return c
}

func newChart(title string, n int) chart {
	return chart{Title: title, Width: int(2*chartPad + float64(max(n, 3))*(barW+barGap)), Height: int(chartH + 2*chartTop + 40), Empty: n == 0}
}

// Base is the y of the x axis (0%).
func (c chart) Base() float64 { return chartTop + chartH }

// Mid is the y of the 50% line.
func (c chart) Mid() float64 { return chartTop + chartH/2 }

// Top is the y of the 100% line.
func (c chart) Top() float64 { return chartTop }

// Left is the x of the y axis.
func (c chart) Left() float64 { return chartPad - 8 }

// XLabelX is the x of the x axis's label, under the round numbers.
func (c chart) XLabelX() float64 { return float64(c.Width) / 2 }

// XLabelY is the y of the x axis's label.
func (c chart) XLabelY() float64 { return chartTop + chartH + 36 }

// bar places the i-th bar of height v in [0, 1].
func (c chart) bar(i, round int, v float64) bar {
	v = math.Max(0, math.Min(1, v))
	x := chartPad + float64(i)*(barW+barGap)
	h := math.Max(2, v*chartH)
	return bar{X: x, Y: chartTop + chartH - h, W: barW, H: h, LX: x + barW/2, Label: fmt.Sprint(round), DotY: -1}
}

// agreement is the share of counted ballots that back the winner: it
// names it, approves it, ranks it first or gives it its highest mark.
func agreement(t *roundtable.Tally) float64 {
	if t.Winner == "" || t.Counted == 0 {
		return 0
	}
	n := 0
	for _, b := range t.Ballots {
		if !b.Abstain && backs(b, t.Winner) {
			n++
		}
	}
	return float64(n) / float64(t.Counted)
}

func backs(b vote.Ballot, w string) bool {
	switch {
	case b.Choice != "":
		return b.Choice == w
	case len(b.Ranking) > 0:
		return b.Ranking[0] == w
	case b.Scores != nil:
		return isTop(b.Scores, w)
	case b.Points != nil:
		return b.Points[w] > 0 && isTop(b.Points, w)
	}
	for _, a := range b.Approve {
		if a == w {
			return true
		}
	}
	return false
}

func isTop(m map[string]int, w string) bool {
	for _, v := range m {
		if v > m[w] {
			return false
		}
	}
	return true
}

// utilityChart draws U/U_max of the decision after each round, for a
// table whose task can tell it (roundtable.Welfare: an exchange).
func (p *Platform) utilityChart(ctx context.Context, roomID string, st *roundtable.State) *chart {
	if p.tables == nil {
		return nil
	}
	t, err := p.tables.Task(ctx, roomID)
	if err != nil {
		p.log.Warn("dashboard task", "table", st.ID, "err", err)
		return nil
	}
	wf, ok := t.(roundtable.Welfare)
	if !ok {
		return nil
	}
	c := newChart("Welfare of the decision after each round (U / U_max)", len(st.Rounds))
	c.YLabel = "U / U_max"
	c.Legend = []legendItem{{"utility", "the decision's total utility over the best possible"}}
	for i, r := range st.Rounds {
		u := 0.0
		if r.Decision != nil {
			if w, ok := wf.Welfare(r.Decision.Proposal); ok {
				u = w
			}
		}
		b := c.bar(i, r.Round, u)
		b.Class, b.Tip = "utility", fmt.Sprintf("Round %d: U/U_max %.2f", r.Round, u)
		c.Bars = append(c.Bars, b)
	}
	return &c
}
