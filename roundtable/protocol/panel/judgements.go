package panel

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
)

// Judgement is one judge's view of one item at the end of a panel, the
// row of Sentimental Agents' Tables 4 to 9 for that judge and item.
type Judgement struct {
	Judge, Item string
	Final       float64 // Table 4: the final sentiment S_i
	Rank        int     // Table 5: the item's place on the judge's own list (1 best; equals share the best place)
	Valence     int     // Table 6: +1 above 0.5, -1 below -0.5, else 0
	Volatility  float64 // Table 7: the standard deviation of the judge's sentiments across rounds
	Conviction  float64 // Table 8: Final / Volatility
	GutRank     int     // Table 9: the item's place on the judge's list by conviction
}

// trajectories are each judge's sentiments per item over the rounds, by
// the judge's ID, from the survey answers; a Facilitator's middle of the
// scale is no view and counts nowhere.
func trajectories(s *roundtable.State, items int) map[string][][]float64 {
	traj := map[string][][]float64{}
	for _, r := range s.Rounds {
		for _, a := range r.Surveys {
			if roundtable.IsNoOpinion(a.Reason) || len(a.Values) != items {
				continue
			}
			if traj[a.By] == nil {
				traj[a.By] = make([][]float64, items)
			}
			for i, v := range a.Values {
				traj[a.By][i] = append(traj[a.By][i], v)
			}
		}
	}
	return traj
}

// Judgements are every judge's Tables 4 to 9 rows, judges by name, items
// in the panel's order.
func Judgements(s *roundtable.State) []Judgement {
	items := Items(s)
	traj := trajectories(s, len(items))
	var out []Judgement
	for _, id := range slices.SortedFunc(maps.Keys(traj), func(a, b string) int { return compareNames(s, a, b) }) {
		final, conv := make([]float64, len(items)), make([]float64, len(items))
		for i, t := range traj[id] {
			final[i], conv[i] = t[len(t)-1], Conviction(t)
		}
		for i, it := range items {
			out = append(out, Judgement{Judge: nameOf(s, id), Item: it, Final: final[i], Rank: place(final, i),
				Valence: 2 - Tier(final[i]), Volatility: Volatility(traj[id][i]), Conviction: conv[i], GutRank: place(conv, i)})
		}
	}
	return out
}

func compareNames(s *roundtable.State, a, b string) int {
	return strings.Compare(nameOf(s, a), nameOf(s, b))
}

// place is item i's place on a list ordered by xs, highest first: 1 plus
// the items strictly above it.
func place(xs []float64, i int) int {
	n := 1
	for _, x := range xs {
		if x > xs[i] {
			n++
		}
	}
	return n
}

// judgementRows are the CSV rows of a table's judgements, with the
// condition and table first.
func judgementRows(cond string, s *roundtable.State) [][]string {
	var rows [][]string
	for _, j := range Judgements(s) {
		rows = append(rows, []string{cond, s.ID, j.Judge, j.Item, report.Decimal(j.Final), strconv.Itoa(j.Rank), strconv.Itoa(j.Valence),
			report.Decimal(j.Volatility), report.Decimal(j.Conviction), strconv.Itoa(j.GutRank)})
	}
	return rows
}

// collectiveRows are a table's collective decisions per item: Borda
// points and place, mean valence tier, gut-feeling points and place.
func collectiveRows(cond string, s *roundtable.State) [][]string {
	m := measure(s)
	items := Items(s)
	borda, gut := make([]float64, len(items)), make([]float64, len(items))
	for i, it := range items {
		borda[i], gut[i] = m.Scalars["borda/"+it], m.Scalars["gut/"+it]
	}
	var rows [][]string
	for i, it := range items {
		rows = append(rows, []string{cond, s.ID, it, report.Decimal(borda[i]), strconv.Itoa(place(borda, i)),
			report.Decimal(m.Scalars["tier/"+it]), report.Decimal(gut[i]), strconv.Itoa(place(gut, i))})
	}
	return rows
}

// judgementArtifacts are Tables 4 to 9 of every panel table, judge by
// judge, and the collective decisions of every table.
func judgementArtifacts(runs map[string][]*roundtable.State) []report.Artifact {
	judges := [][]string{{"condition", "table", "judge", "item", "final_sentiment", "rank", "valence", "volatility", "conviction", "gut_rank"}}
	collective := [][]string{{"condition", "table", "item", "borda_points", "borda_place", "tier", "gut_points", "gut_place"}}
	for _, cond := range slices.Sorted(maps.Keys(runs)) {
		states := slices.Clone(runs[cond])
		slices.SortFunc(states, func(a, b *roundtable.State) int { return strings.Compare(a.ID, b.ID) })
		for _, s := range states {
			judges = append(judges, judgementRows(cond, s)...)
			collective = append(collective, collectiveRows(cond, s)...)
		}
	}
	return []report.Artifact{
		{Name: "panel_judges", Title: "Sentimental Agents, Tables 4 to 9 (per judge)",
			About: "Every table's judges, item by item: the final sentiment (Table 4), the item's place on the judge's own list (Table 5; 1 best, equals share a place), valence (Table 6: +1 above 0.5, -1 below -0.5, else 0), volatility (Table 7: sample standard deviation of the judge's sentiments across rounds), conviction (Table 8: final sentiment / volatility; ±Inf for a sentiment that never moved) and the place by conviction (Table 9, the gut feeling).",
			CSV:   judges},
		{Name: "panel_collective", Title: "Sentimental Agents, collective decisions per table (Tables 5 and 9)",
			About: "Every table's items: Borda points over the judges' lists and the item's collective place (1 best), the mean valence tier (1 best, 3 worst), and the gut-feeling Borda points on conviction with its place.",
			CSV:   collective},
	}
}
