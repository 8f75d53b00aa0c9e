package dyads

import (
	"slices"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// topicKeys are the conditions of a cross-topic row: every recorded
// condition but the claim.
func topicKeys() []string {
	return []string{"control", "memory", "confirmation_bias", "framing", "stances", "exchange", "belief_report"}
}

// Categories are the topic categories in the paper's order; "" is every
// claim (Table 1).
func categories() []string { return []string{"", Science, History, CommonSense} }

// bd are the final B and D of a claim's tables.
type bd struct{ b, d []float64 }

// acrossTopics are Opinion dynamics' Tables 1 and 2: B and D of the final
// opinions averaged over the built-in claims (each claim's mean over its
// tables first), with the standard error across claims, per setting of
// the other conditions; over all claims (Table 1) and per category
// (Table 2: science, history, common sense). Runs on questions of one's
// own have no claim and are left out. ok is false when no run has a
// built-in claim.
func acrossTopics(runs *protocol.Runs) (table1, table2 report.Artifact, ok bool) {
	groups := map[string]map[string]map[string]*bd{} // category -> other conditions -> claim -> tables
	for cond, ms := range runs.Measures {
		params := runs.Params[cond]
		claim, known := Claims()[params["claim"]]
		if !known {
			continue
		}
		var vals []string
		for _, k := range topicKeys() {
			vals = append(vals, params[k])
		}
		key := strings.Join(vals, "\x00")
		for _, cat := range []string{"", claim.Category} {
			if groups[cat] == nil {
				groups[cat] = map[string]map[string]*bd{}
			}
			if groups[cat][key] == nil {
				groups[cat][key] = map[string]*bd{}
			}
			c := groups[cat][key][params["claim"]]
			if c == nil {
				c = &bd{}
				groups[cat][key][params["claim"]] = c
			}
			for _, m := range ms {
				c.b, c.d = append(c.b, m.Scalars["B_final"]), append(c.d, m.Scalars["D_final"])
			}
		}
	}
	if len(groups) == 0 {
		return table1, table2, false
	}
	head := append(slices.Clone(topicKeys()), "topics", "tables", "B", "B_se", "D", "D_se")
	rows1, rows2 := [][]string{head}, [][]string{append([]string{"category"}, head...)}
	for _, cat := range categories() {
		for _, key := range sim.Keys(groups[cat]) {
			row := append(strings.Split(key, "\x00"), meanOverClaims(groups[cat][key])...)
			if cat == "" {
				rows1 = append(rows1, row)
			} else {
				rows2 = append(rows2, append([]string{cat}, row...))
			}
		}
	}
	table1 = report.Artifact{Name: "dyads_table1_topics", Title: "Opinion dynamics, Table 1 (across topics)",
		About: "Bias B and diversity D of the final opinions averaged over the built-in claims (each claim's mean over its tables first; the standard error is across claims), per setting of the other conditions (framing, confirmation bias, memory, ...).",
		CSV:   rows1}
	table2 = report.Artifact{Name: "dyads_table2_categories", Title: "Opinion dynamics, Table 2 (per topic category)",
		About: "As dyads_table1_topics, per category of claims (science, history, common sense): the mean over the category's claims and the standard error across them.",
		CSV:   rows2}
	return table1, table2, true
}

// meanOverClaims are the cells topics, tables, B, B_se, D, D_se: each
// claim's mean over its tables, then the mean and SE over the claims.
func meanOverClaims(claims map[string]*bd) []string {
	var bs, ds []float64
	tables := 0
	for _, name := range sim.Keys(claims) {
		c := claims[name]
		bs, ds = append(bs, sim.MeanSE(c.b).Mean), append(ds, sim.MeanSE(c.d).Mean)
		tables += len(c.b)
	}
	b, d := sim.MeanSE(bs), sim.MeanSE(ds)
	return []string{strconv.Itoa(len(claims)), strconv.Itoa(tables), report.Decimal(b.Mean), report.Decimal(b.SE), report.Decimal(d.Mean), report.Decimal(d.SE)}
}
