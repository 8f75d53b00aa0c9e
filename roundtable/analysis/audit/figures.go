package audit

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
)

// Chart is t's trajectory chart of w for the reports (drawn as PNG and SVG
// by package report): x is the message's place in the table, one line per
// participant, and, on the stance chart, a bot's unwarranted changes
// ringed. The dashboard draws the same series with SVG.
func (t *Table) Chart(w What) *report.Chart {
	order := t.seqOrder()
	c := &report.Chart{Title: fmt.Sprintf("%s: %s", t.Label(), w), XLabel: "message", YLabel: "S (sentiment)", YMin: -1.05, YMax: 1.05}
	if w == StanceLevel {
		c.YLabel, c.YMin, c.YMax = "stance (-2 complement .. 2 statement)", -2.1, 2.1
	}
	blank := func() []float64 {
		ys := make([]float64, len(order))
		for i := range ys {
			ys[i] = math.NaN()
		}
		return ys
	}
	marks := report.Line{Name: "unwarranted change", Y: blank(), Marks: true}
	for _, p := range t.Participants {
		l := report.Line{Name: p.Name, Y: blank()}
		if p.Changes > 0 {
			l.Name = fmt.Sprintf("%s (%d unwarranted)", p.Name, p.Changes) // the plot fonts have no ⚑
		}
		for _, m := range p.Messages {
			v, ok := m.value(w)
			if !ok {
				continue
			}
			l.Y[order[m.Seq]] = v
			if w == StanceLevel && m.Unwarranted {
				marks.Y[order[m.Seq]] = v
			}
		}
		c.Lines = append(c.Lines, l)
	}
	if w == StanceLevel && t.Changed() {
		c.Lines = append(c.Lines, marks)
	}
	return c
}

// writeFigures writes t's sentiment and stance trajectories into dir as
// PNG and SVG.
func writeFigures(dir string, t *Table) ([]string, error) {
	var files []string
	for _, w := range []What{SentimentS, StanceLevel} {
		written, err := report.SaveChart(t.Chart(w), filepath.Join(dir, fmt.Sprintf("audit_%s_%s", w, report.FileName(t.ID))))
		files = append(files, written...)
		if err != nil {
			return files, fmt.Errorf("audit reports: %w", err)
		}
	}
	return files, nil
}
