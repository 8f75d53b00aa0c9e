package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// gridAxis is one axis of the panel's parameter grid: the values given on
// the command line, else the configured one. The first value is the
// setting of a run without a grid.
func gridAxis(given bool, values []float64, configured float64) (float64, []float64) {
	if !given || len(values) == 0 {
		return configured, []float64{configured}
	}
	return values[0], values
}

// gridCell is one setting of the α/tolerance grid.
type gridCell struct {
	alpha, tolerance float64
}

// label names the cell in table IDs and summary.json: "a0.3-t0.001".
func (c gridCell) label() string {
	return "a" + strconv.FormatFloat(c.alpha, 'g', -1, 64) + "-t" + strconv.FormatFloat(c.tolerance, 'g', -1, 64)
}

// grid is every cell of --alpha × --tolerance, checked: alpha in (0, 1],
// tolerance positive. One cell is no grid.
func (p ProtocolSettings) grid() ([]gridCell, error) {
	alphas, tols := orOne(p.Alphas, p.Alpha), orOne(p.Tolerances, p.Tolerance)
	var out []gridCell
	for _, a := range alphas {
		if !(a > 0 && a <= 1) {
			return nil, usagef("--alpha: %g is out of range (0, 1]", a)
		}
		for _, t := range tols {
			if !(t > 0) {
				return nil, usagef("--tolerance: %g is not positive", t)
			}
			out = append(out, gridCell{a, t})
		}
	}
	return out, nil
}

func orOne(xs []float64, x float64) []float64 {
	if len(xs) == 0 {
		return []float64{x}
	}
	return xs
}

// variants are the experiments to run: one per grid cell, each with its
// schedule (the cell's tolerance), agents (the cell's alpha) and a name
// that makes its tables one condition; or e itself without a grid.
func (e *experiment) variants() []*experiment {
	if len(e.grid) == 0 {
		return []*experiment{e}
	}
	return e.grid
}

// resultKey keys a result in summary.json: the rule, and the grid cell
// when there is a grid.
func resultKey(rule string, e *experiment) string {
	if e.cell == "" {
		return rule
	}
	return fmt.Sprintf("%s/%s", rule, e.cell)
}

// resultKeys are the keys of rep's results for rules, grid cells in
// order under each rule.
func resultKeys(rules []vote.Rule, rep simReport) []string {
	var out []string
	for _, r := range rules {
		if _, ok := rep.Rules[string(r)]; ok {
			out = append(out, string(r))
			continue
		}
		for _, k := range sim.Keys(rep.Rules) {
			if strings.HasPrefix(k, string(r)+"/") {
				out = append(out, k)
			}
		}
	}
	return out
}

// cellOf says which grid cell a result key holds, for printing.
func cellOf(key string) string {
	if _, cell, ok := strings.Cut(key, "/"); ok {
		return ", grid cell " + cell
	}
	return ""
}
