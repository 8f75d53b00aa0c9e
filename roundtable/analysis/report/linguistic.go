package report

import (
	"math"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
)

// table8 is Table 8: per rule and round, the mean message length in
// words, Flesch-Kincaid grade and information difference, as a CSV and
// one chart per measure.
func table8(ts []Table) []Artifact {
	var msgs int
	for _, t := range ts {
		msgs += len(t.Messages)
	}
	if msgs == 0 {
		return nil
	}
	rules, groups := byRule(ts)
	n := maxRounds(ts)
	rows := [][]string{{"rule", "round", "messages", "words", "fk_grade", "info_diff", "info_diff_tables"}}
	charts := map[string]*Chart{
		"words":     {Title: "Table 8: message length", XLabel: "round", YLabel: "words per message"},
		"fk_grade":  {Title: "Table 8: message complexity", XLabel: "round", YLabel: "Flesch-Kincaid grade"},
		"info_diff": {Title: "Table 8: information difference", XLabel: "round", YLabel: "mean cosine distance"},
	}
	for _, rule := range rules {
		lines := map[string]*Line{}
		for k := range charts {
			lines[k] = &Line{Name: rule, Y: make([]float64, n), SE: make([]float64, n)}
		}
		for r := 1; r <= n; r++ {
			var words, fk, diff []float64
			for _, t := range groups[rule] {
				for _, m := range t.Messages {
					if m.Round == r {
						words = append(words, float64(m.Words))
						fk = append(fk, m.FKGrade)
					}
				}
				if r <= len(t.InfoDiff) {
					diff = append(diff, t.InfoDiff[r-1])
				}
			}
			w, f, d := meanSE(words), meanSE(fk), meanSE(diff)
			for k, s := range map[string]stat{"words": w, "fk_grade": f, "info_diff": d} {
				lines[k].Y[r-1], lines[k].SE[r-1] = s.mean, s.se
			}
			rows = append(rows, []string{rule, itoa(r), itoa(w.n), Num(w.mean), Num(f.mean), Num(d.mean), itoa(d.n)})
		}
		for k, c := range charts {
			c.Lines = append(c.Lines, *lines[k])
		}
	}
	out := []Artifact{{Name: "table8_linguistic", Title: "Table 8",
		About: "Per rule and round: messages, mean words per message, mean Flesch-Kincaid grade, mean information difference (cosine distance to the previous round's centroid) and the tables it is averaged over.",
		CSV:   rows}}
	for _, k := range []string{"words", "fk_grade", "info_diff"} {
		out = append(out, Artifact{Name: "table8_" + k, Title: "Table 8 (chart)", About: "The " + k + " column of table8_linguistic.csv per round, one line per rule.",
			CSV: column(rows, k), Chart: charts[k]})
	}
	return out
}

// column keeps rule, round and one named column of a CSV.
func column(rows [][]string, name string) [][]string {
	c := 0
	for i, h := range rows[0] {
		if h == name {
			c = i
		}
	}
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = []string{r[0], r[1], r[c]}
	}
	return out
}

func hasActs(ms []Message) bool {
	for _, m := range ms {
		if m.Acts != nil {
			return true
		}
	}
	return false
}

func tagged(ms []Message) []acts.Tagged {
	var out []acts.Tagged
	for _, m := range ms {
		if m.Acts != nil {
			out = append(out, acts.Tagged{Speaker: m.Speaker, Round: m.Round, Acts: m.Acts})
		}
	}
	return out
}

// table9 is Table 9: per rule, round and act, the share of the round's
// labelled messages that have the act; its chart pools the rules.
func table9(ts []Table) *Artifact {
	rules, groups := byRule(ts)
	n := maxRounds(ts)
	rows := [][]string{{"rule", "round", "act", "share", "messages"}}
	for _, rule := range append(rules, "all") {
		g := groups[rule]
		if rule == "all" {
			g = ts
		}
		for r := 1; r <= n; r++ {
			total, count := actShares(g, r)
			for _, a := range acts.All() {
				rows = append(rows, []string{rule, itoa(r), a, Num(share(count[a], total)), itoa(total)})
			}
		}
	}
	heat := &Heat{Title: "Table 9: share of messages with each dialogue act (all rules)", XLabel: "round", Min: 0, Max: 1}
	all := acts.All()
	for i := range all {
		a := all[len(all)-1-i] // Inform on top
		heat.Rows = append(heat.Rows, a)
		row := make([]float64, n)
		for r := 1; r <= n; r++ {
			total, count := actShares(ts, r)
			row[r-1] = share(count[a], total)
		}
		heat.Values = append(heat.Values, row)
	}
	for r := 1; r <= n; r++ {
		heat.Cols = append(heat.Cols, itoa(r))
	}
	return &Artifact{Name: "table9_dialogue_acts", Title: "Table 9",
		About: "Per rule (and all rules) and round: the share of labelled messages that carry each dialogue act (multi-label, so shares add up to more than 1); the figure is a heat map of all rules, acts by round, as in the paper.",
		CSV:   rows, Heat: heat}
}

func actShares(ts []Table, r int) (int, map[string]int) {
	total, count := 0, map[string]int{}
	for _, t := range ts {
		for _, m := range t.Messages {
			if m.Round == r && m.Acts != nil {
				total++
				for _, a := range m.Acts {
					count[a]++
				}
			}
		}
	}
	return total, count
}

func share(k, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return float64(k) / float64(n)
}
