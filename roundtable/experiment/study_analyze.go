package experiment

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// StudyAnalyzeOptions say how a study's stored tables are analyzed: with
// analyze's instruments (the papers' figures per condition group) and
// Permutations draws of each difference's test, from Seed.
type StudyAnalyzeOptions struct {
	AnalyzeOptions
	Permutations int // 0: DefaultPermutations
	// Live says the tables are a live study's, which people are still
	// playing: a table not ended yet is running, not to be run again.
	Live bool
}

// DefaultPermutations is how many relabellings a difference's permutation
// test draws unless told otherwise.
const DefaultPermutations = 2000

// StudyAnalysis is what AnalyzeStudy wrote.
type StudyAnalysis struct {
	Tables  int      // tables measured
	Groups  []string // the condition groups, in order
	Files   []string
	Skipped []string // what was left out, and why
	Missing error    // messages a model-backed instrument failed on
}

// conditionGroup is the measured tables of one condition, of one
// provenance unless pooled.
type conditionGroup struct {
	Label      string // the condition's name, with "-p2" ... when it has several provenances
	Condition  string
	Provenance Provenance
	Pooled     []Provenance // the provenances pooled into it (more than one only when asked)
	Tables     []string
	Measures   []sim.Measures
	units      map[string]string
}

// AnalyzeStudy writes a study's results per condition from the stored
// tables ids (those of other studies and unfinished ones are left out,
// and said so): every metric's mean, standard error, 95% interval and n
// per condition (conditions.csv), the differences between conditions
// with a permutation test (differences.csv), the papers' tables and
// figures per condition (Analyze, in conditions/NAME), and index.md.
// Tables of a condition whose provenance differs are separate groups
// unless opt.Pool.
func AnalyzeStudy(ctx context.Context, st Store, s *Study, ids []string, opt StudyAnalyzeOptions) (StudyAnalysis, error) {
	exps, err := s.Experiments(StudyRun{Model: refuseModel})
	if err != nil {
		return StudyAnalysis{}, err
	}
	groups, skipped, err := s.measureStored(ctx, st, exps, ids, opt)
	if err != nil {
		return StudyAnalysis{}, err
	}
	out := StudyAnalysis{Skipped: skipped}
	for _, g := range groups {
		out.Tables += len(g.Tables)
		out.Groups = append(out.Groups, g.Label)
	}
	if out.Tables == 0 {
		return out, fmt.Errorf("no ended table of study %q in %s", s.Name, opt.Source)
	}
	files, err := writeConditionStats(opt.Out, groups)
	out.Files = append(out.Files, files...)
	if err != nil {
		return out, err
	}
	perms := opt.Permutations
	if perms <= 0 {
		perms = DefaultPermutations
	}
	files, err = writeDifferences(opt.Out, groups, perms, opt.Seed)
	out.Files = append(out.Files, files...)
	if err != nil {
		return out, err
	}
	for _, g := range groups {
		sub := opt.AnalyzeOptions
		sub.Tables, sub.Out, sub.Pool, sub.Progress = g.Tables, filepath.Join(opt.Out, "conditions", g.Label), true, nil
		res, err := Analyze(ctx, st, sub)
		out.Files = append(out.Files, res.Files...)
		for _, sk := range res.Skipped {
			out.Skipped = append(out.Skipped, g.Label+": "+sk)
		}
		out.Missing = errors.Join(out.Missing, res.Missing)
		if err != nil {
			return out, fmt.Errorf("condition %s: %w", g.Label, err)
		}
	}
	path, err := s.writeIndex(opt, groups, out.Skipped, perms)
	out.Files = append(out.Files, path)
	return out, err
}

// measureStored measures the study's ended tables among ids and groups
// them by condition and, unless pooled, provenance.
func (s *Study) measureStored(ctx context.Context, st Store, exps []*Experiment, ids []string, opt StudyAnalyzeOptions) ([]*conditionGroup, []string, error) {
	var groups []*conditionGroup
	var skipped []string
	other, running := 0, 0
	for _, id := range ids {
		if opt.Progress != nil {
			opt.Progress()
		}
		events, err := st.Load(ctx, id)
		if err != nil {
			return nil, nil, fmt.Errorf("load %s: %w", id, err)
		}
		state, err := roundtable.Replay(events)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("Table %s: %v", id, err))
			continue
		}
		labels := state.Config.Labels
		ci := slices.IndexFunc(s.Conditions, func(c Condition) bool { return c.Name == labels[LabelCondition] })
		switch {
		case labels[LabelStudy] != s.Name:
			other++
			continue
		case ci < 0:
			skipped = append(skipped, fmt.Sprintf("Table %s: its condition %q is not in the study file", id, labels[LabelCondition]))
			continue
		case state.Status != roundtable.StatusEnded:
			running++
			continue
		}
		ms, err := exps[ci].measureStored(state)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("Table %s: %v", id, err))
			continue
		}
		p := ProvenanceOf(state)
		g := groupFor(&groups, s.Conditions[ci].Name, p, opt.Pool)
		g.units = withUnits(withUnits(metricUnits(), exps[ci].units), tableUnits())
		g.Tables, g.Measures = append(g.Tables, id), append(g.Measures, ms)
	}
	switch {
	case running > 0 && opt.Live:
		n, are := "tables", "are"
		if running == 1 {
			n, are = "table", "is"
		}
		skipped = append(skipped, fmt.Sprintf("%d %s of the study %s still being played; each is counted once it ends.", running, n, are))
	case running > 0:
		skipped = append(skipped, fmt.Sprintf("%d tables of the study have not ended (run `roundtable study run` again to finish them) and are left out.", running))
	}
	if other > 0 {
		skipped = append(skipped, fmt.Sprintf("%d tables of the database belong to no condition of study %q and are left out.", other, s.Name))
	}
	s.order(groups)
	return groups, skipped, nil
}

// groupFor is the group of a table of condition cond and provenance p,
// added when new; its label gains "-pN" once the condition has several.
func groupFor(groups *[]*conditionGroup, cond string, p Provenance, pool bool) *conditionGroup {
	n := 0
	for _, g := range *groups {
		if g.Condition != cond {
			continue
		}
		n++
		if pool || g.Provenance.Key() == p.Key() {
			if !slices.ContainsFunc(g.Pooled, func(q Provenance) bool { return q.Key() == p.Key() }) {
				g.Pooled = append(g.Pooled, p)
			}
			return g
		}
	}
	g := &conditionGroup{Label: cond, Condition: cond, Provenance: p, Pooled: []Provenance{p}}
	if n > 0 {
		g.Label = cond + "-p" + strconv.Itoa(n+1)
		for _, o := range *groups {
			if o.Condition == cond && o.Label == cond {
				o.Label = cond + "-p1"
			}
		}
	}
	*groups = append(*groups, g)
	return g
}

// order sorts the groups as the study lists its conditions.
func (s *Study) order(groups []*conditionGroup) {
	rank := func(g *conditionGroup) int {
		return slices.IndexFunc(s.Conditions, func(c Condition) bool { return c.Name == g.Condition })
	}
	slices.SortStableFunc(groups, func(a, b *conditionGroup) int { return rank(a) - rank(b) })
}

// measureStored measures an ended table of the experiment's one design,
// rebuilt for its replication: the design's measures and what every
// table has (failed actions, model calls, tokens).
func (e *Experiment) measureStored(s *roundtable.State) (sim.Measures, error) {
	rep, err := strconv.Atoi(s.Config.Labels[LabelReplication])
	if err != nil || rep < 1 {
		return sim.Measures{}, fmt.Errorf("label %s: %q is not a replication's number", LabelReplication, s.Config.Labels[LabelReplication])
	}
	d := e.designs[0]
	task, err := d.plan.task(rep-1, s.Config.Seed)
	if err != nil {
		return sim.Measures{}, err
	}
	ms := d.plan.measure(task, s)
	if ms.Scalars == nil {
		ms.Scalars = map[string]float64{}
	}
	var u roundtable.Usage
	failures := 0
	for _, r := range s.Rounds {
		failures += len(r.Failures) + len(r.Rejected)
		for _, x := range r.Usage {
			u = u.Add(x)
		}
	}
	ms.Scalars["failed_actions"] = float64(failures)
	ms.Scalars["model_calls"] = float64(u.Calls)
	ms.Scalars["model_tokens"] = float64(u.PromptTokens + u.CompletionTokens)
	return ms, nil
}

// tableUnits are the units of what measureStored adds to every table.
func tableUnits() map[string]string {
	return map[string]string{
		"failed_actions": "count of failed agent actions and rejected ballots of a table",
		"model_calls":    "count of model calls of a table",
		"model_tokens":   "prompt plus completion tokens of a table",
	}
}
