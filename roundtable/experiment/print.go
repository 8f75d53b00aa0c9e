package experiment

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	deliberation "github.com/roundtable-ai/roundtable/roundtable/protocol/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// printer prints a report as its paper's table.
type printer interface {
	print(w io.Writer, rules []vote.Rule, rep Report)
}

// Print prints rep as the experiment's paper prints it.
func (e *Experiment) Print(w io.Writer, rep Report) { e.printer.print(w, e.opt.Rules, rep) }

// exchangePrinter prints the columns of the paper's Table 1, in percent
// of U_max (AUC@n as the mean over its n rounds, as the paper prints it).
type exchangePrinter struct{}

func (exchangePrinter) print(w io.Writer, rules []vote.Rule, rep Report) {
	fmt.Fprintf(w, "Exchange economy, %d agents, %d rounds, %d runs per rule, seed %d (mean, standard error in parentheses; percent of U_max)\n",
		rep.Agents, rep.Rounds, rep.Runs, rep.Seed)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "RULE\tU@3\tU@5\tU@10\tAUC@3\tAUC@5\tAUC@10\tRATIONALITY\tMIN/MAX\tRIGIDITY\tFAILED ACTIONS\t")
	cols := []string{"U@3", "U@5", "U@10", "AUC@3_mean", "AUC@5_mean", "AUC@10_mean", "rationality", "fairness", "rigidity"}
	for _, r := range rules {
		fmt.Fprintf(tw, "%s\t", r)
		s := rep.Rules[string(r)].Summary
		for _, c := range cols {
			fmt.Fprintf(tw, "%s\t", formatStat(s.Scalars[c]))
		}
		fmt.Fprintf(tw, "%s\t\n", failedActions(s))
	}
	_ = tw.Flush()
	printCoverage(w, rules, rep)
	printFailureKinds(w, rules, rep)
}

type textPrinter struct{}

func (textPrinter) print(w io.Writer, rules []vote.Rule, rep Report) {
	fmt.Fprintf(w, "Free-text task, %d agents, %d rounds, %d runs per rule\n", rep.Agents, rep.Rounds, rep.Runs)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "RULE\tDECIDED@R (%)\tFIRST AGREEMENT\tFORMAT ERRORS/TABLE\tFAILED ACTIONS\tTOKENS\t")
	for _, r := range rules {
		s := rep.Rules[string(r)].Summary
		dec := s.Series["decided"]
		last := sim.Stat{}
		if len(dec) > 0 {
			last = dec[len(dec)-1]
			last.Mean, last.SE = 100*last.Mean, 100*last.SE
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t\n", r, formatStat(last), formatStat(s.Scalars["first_agreement"]),
			formatStat(s.Scalars["format_errors"]), failedActions(s), s.Tokens)
	}
	_ = tw.Flush()
	printFormatErrors(w, rules, rep)
}

// recommendPrinter prints the error per round, and the baselines on the
// same cases.
type recommendPrinter struct {
	cases                              int
	fourMAE, fourRMSE, knnMAE, knnRMSE float64
}

func (p recommendPrinter) print(w io.Writer, rules []vote.Rule, rep Report) {
	fmt.Fprintf(w, "Recommendation (MovieLens), %d agents, %d rounds, %d cases per rule: MAE / RMSE of the decision per round\n", rep.Agents, rep.Rounds, rep.Runs)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "RULE\t")
	for r := 1; r <= rep.Rounds; r++ {
		fmt.Fprintf(tw, "R%d\t", r)
	}
	fmt.Fprintln(tw, "FAILED ACTIONS\t")
	for _, rule := range rules {
		s := rep.Rules[string(rule)].Summary
		fmt.Fprintf(tw, "%s\t", rule)
		for i := range s.Series["abs_error"] {
			fmt.Fprintf(tw, "%.2f / %.2f\t", s.Series["abs_error"][i].Mean, math.Sqrt(s.Series["sq_error"][i].Mean))
		}
		fmt.Fprintf(tw, "%s\t\n", failedActions(s))
	}
	_ = tw.Flush()
	printCoverage(w, rules, rep)
	printFormatErrors(w, rules, rep)
	fmt.Fprintf(w, "baselines on the same %d cases: always 4: MAE %.3f RMSE %.3f; collaborative filtering (kNN, NMF similarity): MAE %.3f RMSE %.3f\n",
		p.cases, p.fourMAE, p.fourRMSE, p.knnMAE, p.knnRMSE)
}

// protocolPrinter prints the paper's headline figures of a protocol run.
type protocolPrinter struct{}

func (protocolPrinter) print(w io.Writer, rules []vote.Rule, rep Report) {
	for _, key := range resultKeys(rules, rep) {
		sc := rep.Rules[key].Summary.Scalars
		fmt.Fprintf(w, "%s protocol, %d agents, up to %d rounds, %d runs%s (mean, standard error in parentheses)\n", rep.Protocol, rep.Agents, rep.Rounds, rep.Runs, cellOf(key))
		if len(rep.Params) > 0 {
			fmt.Fprintf(w, "condition: %s\n", paramsText(rep.Params))
		}
		tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
		for _, k := range sim.Keys(sc) {
			if strings.HasPrefix(k, "format_errors") {
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t\n", k, formatStat(sc[k]), UnitOf(rep.Units, k))
		}
		_ = tw.Flush()
	}
}

// resultKeys are the keys of rep's results for rules, grid cells in
// order under each rule.
func resultKeys(rules []vote.Rule, rep Report) []string {
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

// paramsText lists a protocol's parameters, sorted: "control none, memory
// cumulative".
func paramsText(params map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(params)) {
		parts = append(parts, k+" "+params[k])
	}
	return strings.Join(parts, ", ")
}

func formatStat(s sim.Stat) string {
	if math.IsNaN(s.Mean) || s.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f (%.2f)", s.Mean, s.SE)
}

// failedActions is the FAILED ACTIONS column of every printed table: the
// actions that failed (model errors, timeouts, format errors, rejected
// ballots) out of all asked, so a run whose model calls failed cannot pass
// for a normal one.
func failedActions(s sim.Summary) string {
	if s.Actions == 0 {
		return fmt.Sprintf("%d", s.Failures)
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", s.Failures, s.Actions, 100*float64(s.Failures)/float64(s.Actions))
}

// printCoverage prints, per rule, the share of tables with a decision
// after each round (Figure 2 plots its complement).
func printCoverage(w io.Writer, rules []vote.Rule, rep Report) {
	for _, rule := range rules {
		fmt.Fprintf(w, "tables with a decision, %s, by round:", rule)
		for _, st := range rep.Rules[string(rule)].Summary.Series["coverage"] {
			fmt.Fprintf(w, " %.0f%%", 100*st.Mean)
		}
		fmt.Fprintln(w)
	}
}

// printFormatErrors lists the mean format errors per table by rule, agent
// and phase, which the paper compares across rules.
func printFormatErrors(w io.Writer, rules []vote.Rule, rep Report) {
	printFailureKinds(w, rules, rep)
	for _, r := range rules {
		sc := rep.Rules[string(r)].Summary.Scalars
		for _, k := range sim.Keys(sc) {
			if rest, ok := strings.CutPrefix(k, "format_errors/"); ok && rest != "" {
				fmt.Fprintf(w, "format errors %s %s: %.2f per table\n", r, rest, sc[k].Mean)
			}
		}
	}
}

// printFailureKinds prints, per rule with failures, the failed actions per
// table by kind.
func printFailureKinds(w io.Writer, rules []vote.Rule, rep Report) {
	for _, r := range rules {
		sc := rep.Rules[string(r)].Summary.Scalars
		var parts []string
		for _, k := range deliberation.FailureKinds() {
			if st, ok := sc["failed/"+k]; ok && st.Mean > 0 {
				parts = append(parts, fmt.Sprintf("%s %.2f", k, st.Mean))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "failed actions %s, per table by kind: %s\n", r, strings.Join(parts, ", "))
		}
	}
}

// PrintTiming prints how long the tables took, phase by phase, and where
// their events and summary are.
func PrintTiming(w io.Writer, rep Report, events, summary string) {
	tables := 0
	phases := map[string]time.Duration{}
	for _, r := range rep.Rules {
		tables += len(r.Runs)
		for p, d := range r.Summary.Phases {
			phases[p] += d
		}
	}
	secs := rep.WallNS.Seconds()
	var parts []string
	for _, p := range []string{"message", "proposal", "vote", "survey", "private"} {
		if d, ok := phases[p]; ok || p == "message" || p == "proposal" || p == "vote" {
			parts = append(parts, fmt.Sprintf("%s %s", p, d.Round(time.Millisecond)))
		}
	}
	fmt.Fprintf(w, "\n%d tables in %.2fs (%.1f tables/s); phase wall time summed over tables: %s\n",
		tables, secs, float64(tables)/max(secs, 1e-9), strings.Join(parts, ", "))
	fmt.Fprintf(w, "events: %s   summary: %s\n", events, summary)
}
