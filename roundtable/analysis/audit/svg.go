package audit

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// What selects a trajectory chart's series.
type What string

// The trajectory charts.
const (
	SentimentS  What = "sentiment" // S_i after each message, in [-1, 1]
	StanceLevel What = "stance"    // the classified level, in [-2, 2]
)

// Chart geometry.
const (
	svgW, svgH       = 560.0, 220.0
	padL, padR, padY = 44.0, 150.0, 14.0
)

// SVG draws each participant's trajectory over the table's messages (x:
// the message's place in the table, y: S or the stance level). A bot's
// unwarranted changes are ringed (class "unwarranted"). Names are
// escaped; the result is a standalone <svg> element.
func (t *Table) SVG(w What) string {
	lo, hi := -1.0, 1.0
	if w == StanceLevel {
		lo, hi = -2, 2
	}
	order := t.seqOrder()
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="audit-chart" role="img" aria-label="%s trajectories" width="%g" height="%g" viewBox="0 0 %g %g">`,
		w, svgW, svgH, svgW, svgH)
	y := func(v float64) float64 { return padY + (hi-v)/(hi-lo)*(svgH-2*padY) }
	x := func(seq uint64) float64 {
		if len(order) < 2 {
			return padL
		}
		return padL + float64(order[seq])/float64(len(order)-1)*(svgW-padL-padR)
	}
	fmt.Fprintf(&b, `<line class="axis" stroke="#999" x1="%g" y1="%g" x2="%g" y2="%g"/>`, padL, y(0), svgW-padR, y(0))
	fmt.Fprintf(&b, `<text class="tick" font-size="11" x="2" y="%g">%g</text><text class="tick" font-size="11" x="2" y="%g">%g</text>`, y(hi)+4, hi, y(lo), lo)
	for i, p := range t.Participants {
		t.series(&b, p, i, w, x, y)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

func (t *Table) series(b *strings.Builder, p *Participant, i int, w What, x func(uint64) float64, y func(float64) float64) {
	var pts []string
	var rings []string
	for _, m := range p.Messages {
		v, ok := m.value(w)
		if !ok {
			continue
		}
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(m.Seq), y(v)))
		if w == StanceLevel && m.Unwarranted {
			rings = append(rings, fmt.Sprintf(`<circle class="unwarranted" fill="none" stroke="#D55E00" stroke-width="2" cx="%.1f" cy="%.1f" r="6"><title>%s: unwarranted change in round %d</title></circle>`,
				x(m.Seq), y(v), html.EscapeString(p.Name), m.Round))
		}
	}
	ly := padY + 14*float64(i+1)
	name := html.EscapeString(p.Name)
	flag := ""
	if p.Changes > 0 {
		flag = fmt.Sprintf(" ⚑ %d", p.Changes)
	}
	color := palette[i%len(palette)]
	fmt.Fprintf(b, `<g class="series s%d" stroke="%s" fill="%s"><title>%s</title>`, i%len(palette), color, color, name)
	if len(pts) > 0 {
		fmt.Fprintf(b, `<polyline fill="none" stroke-width="2" points="%s"/>`, strings.Join(pts, " "))
		for _, pt := range pts {
			xy := strings.SplitN(pt, ",", 2)
			fmt.Fprintf(b, `<circle r="2.5" cx="%s" cy="%s"/>`, xy[0], xy[1])
		}
	}
	fmt.Fprintf(b, `<text class="legend" stroke="none" font-size="12" x="%g" y="%g">%s%s</text></g>`, svgW-padR+8, ly, name, flag)
	b.WriteString(strings.Join(rings, ""))
}

// value is m's point on chart w: S or the classified level, and false
// when it has none.
func (m Message) value(w What) (float64, bool) {
	v, ok := m.S, m.HasScore
	if w == StanceLevel {
		v, ok = float64(m.Stance), m.HasStance
	}
	return v, ok && !math.IsNaN(v)
}

// palette colours the series (colour-blind safe, Okabe-Ito).
var palette = []string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"}

// seqOrder numbers the table's messages in the order they were posted.
func (t *Table) seqOrder() map[uint64]int {
	var seqs []uint64
	for _, p := range t.Participants {
		for _, m := range p.Messages {
			seqs = append(seqs, m.Seq)
		}
	}
	sortSeqs(seqs)
	out := make(map[uint64]int, len(seqs))
	for i, s := range seqs {
		out[s] = i
	}
	return out
}
