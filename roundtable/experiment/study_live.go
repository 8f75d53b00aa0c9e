package experiment

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// LiveCondition is a condition of a study as its live tables are made:
// the table's config, labelled with the study and the condition so that
// `study analyze` finds it, and its bots; People seats wait for people.
type LiveCondition struct {
	Name   string
	People int
	Config roundtable.Config
	Bots   []roundtable.Participant
}

// Live is every condition of the study as live tables are made: each
// table is its condition's first replication as `study run` builds it
// (Study.FirstTable), with people in its last humans seats; each bot's
// Agent carries what its model, or its model-free agent, is asked with
// (SeatAgent, ModelFreeSeat). What a live table cannot play (the
// recommendation task, a panel's judges reading documents) is an error
// naming the condition and the key, rather than a table that silently
// differs from its recipe.
func (s *Study) Live() ([]LiveCondition, error) {
	out := make([]LiveCondition, 0, len(s.Conditions))
	for _, c := range s.Conditions {
		lc, err := s.liveCondition(c)
		if err != nil {
			return nil, fmt.Errorf("study %s: condition %q: %w", s.Name, c.Name, err)
		}
		out = append(out, lc)
	}
	return out, nil
}

func (s *Study) liveCondition(c Condition) (LiveCondition, error) {
	r := c.Recipe
	switch {
	case r.Humans < 1:
		return LiveCondition{}, errors.New("humans: 0: a live study seats people (set humans to the people at each table)")
	case r.Protocol == roundtable.ProtocolRoundTable && r.Task == "recommendation":
		return LiveCondition{}, errors.New("task: \"recommendation\": its ratings are held out of a data set, so it runs headless only (`roundtable study run`)")
	}
	t, err := s.FirstTable(c)
	if err != nil {
		return LiveCondition{}, err
	}
	cfg := t.Config
	cfg.Title = s.Name + " · " + c.Name
	delete(cfg.Labels, "stand_ins") // people sit there
	if cfg.Task.Kind == "text" && cfg.Task.Topic == "" {
		// The headless table records the recipe's question as its topic,
		// none when a dyads condition names a claim instead; a live table
		// must say what it decides (the web channel refuses to open it
		// otherwise), which is the claim's statement its seats play.
		cfg.Task.Topic = t.Question
	}
	people := t.People()
	lc := LiveCondition{Name: c.Name, People: r.Humans}
	for i, p := range cfg.Participants {
		if slices.Contains(people, i) {
			continue
		}
		if o, asked := t.Models[p.ID]; asked {
			p.Agent = liveModelAgent(p, o)
		} else if kind, _, _ := strings.Cut(t.ModelFree, "?"); t.ModelFree != "" && p.Agent == kind {
			p.Agent = t.ModelFree
		}
		lc.Bots = append(lc.Bots, p)
	}
	cfg.Participants = nil
	lc.Config = cfg
	return lc, nil
}

// liveModelAgent is the Agent of seat p whose language model is asked as
// o says (as the headless run's Model is asked): a protocol's own model
// seat keeps its kind and endpoint and takes o's model and temperature;
// any other seat is a language-model participant at o's endpoint.
func liveModelAgent(p roundtable.Participant, o ModelOptions) string {
	if _, _, own := protocol.ModelSeat(p); own {
		return SeatAgent(p.Agent, ModelOptions{Model: o.Model, Temperature: o.Temperature})
	}
	kind := "llm"
	if o.Endpoint != "" {
		kind += ":" + o.Endpoint
	}
	o.Endpoint = ""
	return SeatAgent(kind, o)
}

// ConditionTable is conditions.csv as a table: a row per condition
// group, a column per metric (its final value for a series), each cell
// "mean ± se (n)".
type ConditionTable struct {
	Metrics []string
	Rows    []ConditionRow
}

// ConditionRow is one condition group's cells, in the order of Metrics.
type ConditionRow struct {
	Condition string
	Cells     []string
}

// ReadConditionTable reads the conditions.csv that AnalyzeStudy wrote
// into dir.
func ReadConditionTable(dir string) (ConditionTable, error) {
	f, err := os.Open(filepath.Join(dir, "conditions.csv"))
	if err != nil {
		return ConditionTable{}, fmt.Errorf("read results: %w", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return ConditionTable{}, fmt.Errorf("read results: %w", err)
	}
	var t ConditionTable
	cells := map[[2]string]string{}
	for _, row := range rows[min(1, len(rows)):] {
		if len(row) < 8 || row[2] != "" { // a series' rounds: its final value is a metric of its own
			continue
		}
		cond, metric := row[0], row[1]
		if !slices.Contains(t.Metrics, metric) {
			t.Metrics = append(t.Metrics, metric)
		}
		if !slices.ContainsFunc(t.Rows, func(r ConditionRow) bool { return r.Condition == cond }) {
			t.Rows = append(t.Rows, ConditionRow{Condition: cond})
		}
		cells[[2]string{cond, metric}] = fmt.Sprintf("%s ± %s (n %s)", row[3], row[4], row[7])
	}
	for i := range t.Rows {
		for _, m := range t.Metrics {
			t.Rows[i].Cells = append(t.Rows[i].Cells, cells[[2]string{t.Rows[i].Condition, m}])
		}
	}
	return t, nil
}

// LiveResults measures the study's ended tables in st as `study analyze`
// does with its offline instruments (readability by the CMU dictionary,
// dialogue acts by cue phrases, hashed TF-IDF), writing into dir, and
// returns the results per condition and what was left out.
func LiveResults(ctx context.Context, st Store, s *Study, dir string) (ConditionTable, []string, error) {
	ids, _, err := roundtable.Readable(ctx, st, nil)
	if err != nil {
		return ConditionTable{}, nil, err
	}
	opt := AnalyzeOptions{Out: dir, Source: "the live database", Seed: s.Seed}
	if opt.Readability, err = analysis.New(analysis.Spec{Instrument: "readability", Method: "cmudict"}); err != nil {
		return ConditionTable{}, nil, err
	}
	if opt.Acts, err = analysis.New(analysis.Spec{Instrument: "dialogue-acts", Method: "cue-phrases"}); err != nil {
		return ConditionTable{}, nil, err
	}
	res, err := AnalyzeStudy(ctx, st, s, ids, StudyAnalyzeOptions{AnalyzeOptions: opt, Permutations: 200, Live: true})
	if err != nil {
		return ConditionTable{}, res.Skipped, err
	}
	t, err := ReadConditionTable(dir)
	return t, res.Skipped, err
}
