package protocol

import (
	"context"
	"encoding/json"
	"math"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// StanceChanges classifies every message of t, public and private, with
// in's stance classifier of statement and complement (the annotations are
// kept beside the log, so a second analyze asks no model again), and
// tallies each author's against the stance its seat was assigned, read
// as a level: Conversational bias's unwarranted opinion change, counted
// the same way for every protocol. Seats without a stance (the
// Facilitator, the no-role-play control) are left out. missing counts the
// messages a model failed on.
func StanceChanges(ctx context.Context, t Table, in Instruments, statement, complement string) (per map[string]stance.Changes, missing int, err error) {
	s := t.State
	inst := in.Stance(statement, complement)
	cache := analysis.Cache{Store: in.Annotations}
	per = map[string]stance.Changes{}
	for _, e := range t.Events {
		m, ok := e.Data.(roundtable.MessagePosted)
		if !ok || m.Text == "" {
			continue
		}
		p, seated := s.Participant(e.Actor)
		assigned, err := opinion.ParseStance(p.Stance)
		if !seated || p.Stance == "" || err != nil {
			continue
		}
		a, err := cache.Annotate(ctx, s.ID, e.Seq, inst, analysis.Item{Text: m.Text})
		if err != nil {
			return nil, missing, err
		}
		var r analysis.StanceResult
		if a.Missing != "" || json.Unmarshal(a.Result, &r) != nil {
			missing++
			continue
		}
		c := per[e.Actor]
		c.Add(stance.Level(opinion.Round(assigned)), r.Level, r.Presence)
		per[e.Actor] = c
	}
	return per, missing, nil
}

// ChangeScalars are the measures of per-author tallies: the messages'
// tally (stance.Changes.Scalars), changed_agents (authors with a change),
// chat_changed (1 if any), agents_toward_statement and
// agents_toward_complement (authors with a change in that direction),
// classified_agents and no_opinion_agents (authors none of whose
// messages expressed an opinion).
func ChangeScalars(per map[string]stance.Changes) map[string]float64 {
	var all stance.Changes
	out := map[string]float64{}
	changed, toS, toC, silent := 0.0, 0.0, 0.0, 0.0
	for _, c := range per {
		all.Merge(c)
		if c.Changed > 0 {
			changed++
		}
		if c.TowardStatement > 0 {
			toS++
		}
		if c.TowardComplement > 0 {
			toC++
		}
		if c.Opinions == 0 {
			silent++
		}
	}
	for k, v := range all.Scalars() {
		out[k] = v
	}
	out["changed_agents"], out["chat_changed"] = changed, math.Min(changed, 1)
	out["agents_toward_statement"], out["agents_toward_complement"] = toS, toC
	out["classified_agents"], out["no_opinion_agents"] = float64(len(per)), silent
	return out
}

// Matrix is the level-to-level matrix of each condition's classified
// messages (ChangeScalars' matrix/* counts), summed over its tables.
func (c Conditions) Matrix(name, title string) report.Artifact {
	rows := [][]string{append([]string{"condition", "tables"}, stance.MatrixHead()...)}
	for _, cond := range sim.Keys(c) {
		var total stance.Changes
		for _, m := range c[cond] {
			for a := stance.StronglyComplement; a <= stance.StronglyStatement; a++ {
				for b := stance.StronglyComplement; b <= stance.StronglyStatement; b++ {
					total.Matrix[a+2][b+2] += int(m.Scalars[stance.MatrixKey(a, b)])
				}
			}
		}
		rows = append(rows, total.MatrixRows(cond, strconv.Itoa(len(c[cond])))...)
	}
	return report.Artifact{Name: name, Title: title,
		About: "Per condition: how many classified messages with an opinion, of agents assigned each level, were read at each level (off the diagonal: the unwarranted changes), summed over tables.",
		CSV:   rows}
}
