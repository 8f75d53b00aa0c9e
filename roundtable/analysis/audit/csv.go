package audit

import (
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
	"github.com/roundtable-ai/roundtable/roundtable/export"
)

// WriteTrajectoriesCSV writes one row per message: the participant's
// opinion sentiment S_O, its sentiment S and change ΔS, the classified
// stance and whether it is an unwarranted change.
func WriteTrajectoriesCSV(w io.Writer, tables []*Table) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"table", "participant", "name", "kind", "round", "seq", "score", "s", "delta_s", "stance", "presence", "unwarranted", "missing"})
	for _, t := range tables {
		for _, p := range t.Participants {
			for _, m := range p.Messages {
				st := ""
				if m.Classified {
					st = strconv.Itoa(int(m.Stance))
				}
				cw.Write([]string{t.ID, p.ID, export.Defuse(p.Name), kind(p), strconv.Itoa(m.Round), strconv.FormatUint(m.Seq, 10),
					report.Num(m.Score), report.Num(m.S), report.Num(m.Delta), st, boolCell(m.Classified, m.HasStance), strconv.FormatBool(m.Unwarranted),
					export.Defuse(strings.Join(m.Missing, "; "))})
			}
		}
	}
	return flush(cw)
}

// WriteChangesCSV writes one row per bot: its assigned stance, how many of
// its messages were classified, and how many changed without warrant.
func WriteChangesCSV(w io.Writer, tables []*Table) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"table", "participant", "name", "kind", "assigned", "classified", "changes", "toward_statement", "toward_complement"})
	for _, t := range tables {
		for _, p := range t.Participants {
			as, kind := "", "person"
			if p.HasAssigned {
				as = strconv.Itoa(int(p.Assigned))
			}
			if p.Bot {
				kind = "bot"
			}
			cw.Write([]string{t.ID, p.ID, export.Defuse(p.Name), kind, as, strconv.Itoa(p.Tally.Opinions), strconv.Itoa(p.Changes),
				strconv.Itoa(p.Tally.TowardStatement), strconv.Itoa(p.Tally.TowardComplement)})
		}
	}
	return flush(cw)
}

// WriteMatrixCSV writes the level-to-level matrix of every table's
// classified messages with an opinion: per table, and over all tables
// (table "*"): how many messages of participants assigned a level were
// classified at each level.
func WriteMatrixCSV(w io.Writer, tables []*Table) error {
	cw := csv.NewWriter(w)
	cw.Write(append([]string{"table"}, stance.MatrixHead()...))
	var all stance.Changes
	for _, t := range tables {
		var c stance.Changes
		for _, p := range t.Participants {
			c.Merge(p.Tally)
		}
		all.Merge(c)
		for _, r := range c.MatrixRows(t.ID) {
			cw.Write(r)
		}
	}
	for _, r := range all.MatrixRows("*") {
		cw.Write(r)
	}
	return flush(cw)
}

// WriteSlopesCSV writes each participant's bias slopes and the pooled ones
// (participant "*").
func WriteSlopesCSV(w io.Writer, tables []*Table) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"table", "participant", "slope_positive", "n_positive", "r2_positive", "slope_negative", "n_negative", "r2_negative", "bias"})
	for _, t := range tables {
		sl := t.Slopes()
		ids := make([]string, 0, len(sl))
		for id := range sl {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			cw.Write(slopeRow(t.ID, id, sl[id]))
		}
	}
	cw.Write(slopeRow("*", "*", Summarize(tables).Slopes))
	return flush(cw)
}

func slopeRow(table, who string, s Slopes) []string {
	return []string{table, who, report.Num(s.Positive), strconv.Itoa(s.NPositive), report.Num(s.R2Positive),
		report.Num(s.Negative), strconv.Itoa(s.NNegative), report.Num(s.R2Negative), s.Bias()}
}

// WriteSummaryCSV writes the summary as metric,value rows.
func WriteSummaryCSV(w io.Writer, s Summary) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"metric", "value"})
	for _, r := range [][2]string{
		{"tables", strconv.Itoa(s.Tables)},
		{"tables_with_change", strconv.Itoa(s.ChangedTables)},
		{"share_with_change", report.Num(s.ChangedShare)},
		{"participants", strconv.Itoa(s.Participants)},
		{"participants_changed", strconv.Itoa(s.ParticipantsChanged)},
		{"bots", strconv.Itoa(s.Bots)},
		{"bots_changed", strconv.Itoa(s.BotsChanged)},
		{"unwarranted_changes", strconv.Itoa(s.Changes)},
		{"changes_toward_statement", strconv.Itoa(s.Tally.TowardStatement)},
		{"changes_toward_complement", strconv.Itoa(s.Tally.TowardComplement)},
		{"classified_messages", strconv.Itoa(s.Tally.Classified)},
		{"opinion_messages", strconv.Itoa(s.Tally.Opinions)},
		{"kappa_self_report", report.Num(s.Kappa)},
		{"kappa_pairs", strconv.Itoa(s.KappaN)},
		{"slope_positive", report.Num(s.Slopes.Positive)},
		{"slope_negative", report.Num(s.Slopes.Negative)},
		{"bias", s.Slopes.Bias()},
		{"missing_annotations", strconv.Itoa(s.Missing)},
	} {
		cw.Write(r[:])
	}
	return flush(cw)
}

func flush(cw *csv.Writer) error {
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write audit csv: %w", err)
	}
	return nil
}

func boolCell(known, v bool) string {
	if !known {
		return ""
	}
	return strconv.FormatBool(v)
}

func kind(p *Participant) string {
	if p.Bot {
		return "agent"
	}
	return "human"
}
