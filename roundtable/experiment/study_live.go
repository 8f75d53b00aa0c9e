package experiment

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
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

// errNotLive says what of a recipe live tables do not play yet.
var errNotLive = errors.New("live tables do not play this yet; run it headless (`roundtable study run`)")

// Live is every condition of the study as live tables are made. Live
// tables play RoundTable's text task with language-model bots, each
// answering with its endpoint's model and settings; a condition that asks
// for more (another protocol or task, a bot's own model, temperature,
// tokens or memory) is an error naming the condition and the key, rather
// than a table that silently differs from its recipe.
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
	case r.Protocol != "roundtable":
		return LiveCondition{}, fmt.Errorf("protocol: %q: %w", r.Protocol, errNotLive)
	case r.Task != "text":
		return LiveCondition{}, fmt.Errorf("task: %q (live studies play the text task): %w", r.Task, errNotLive)
	case r.Humans < 1:
		return LiveCondition{}, errors.New("humans: 0: a live study seats people (set humans to the people at each table)")
	case r.Humans < r.Seats && r.Agent != "llm":
		return LiveCondition{}, fmt.Errorf("agent: %q: the text task's bots are language models (agent = \"llm\")", r.Agent)
	}
	rule, err := vote.ParseRule(r.Rule)
	if err != nil {
		return LiveCondition{}, keyed("rule", err)
	}
	tie, err := vote.ParseTiePolicy(r.Tie)
	if err != nil {
		return LiveCondition{}, keyed("tie", err)
	}
	durations, err := r.Durations.parse()
	if err != nil {
		return LiveCondition{}, err
	}
	cfg := roundtable.Config{Title: s.Name + " · " + c.Name, Rule: rule, Tie: tie, Rounds: r.Rounds, Quorum: r.Quorum,
		EarlyStop: roundtable.EarlyStop(r.EarlyStop), Mode: roundtable.Sealed, Durations: durations,
		Task: roundtable.TaskSpec{Kind: "text", Topic: r.Question},
		// A live table is measured as the first replication of its
		// condition: the text task is the same at every one.
		Labels: map[string]string{LabelStudy: s.Name, LabelCondition: c.Name, LabelReplication: "1"}}
	if len(r.Audit) > 0 {
		cfg.Audit = &roundtable.AuditSpec{Instruments: r.Audit, Statement: r.Question, Complement: r.Complement}
	}
	lc := LiveCondition{Name: c.Name, People: r.Humans, Config: cfg}
	for i := range r.Seats - r.Humans {
		b := Bot{}
		if i < len(r.Bots) {
			b = r.Bots[i]
		}
		if key := b.notLive(); key != "" {
			return LiveCondition{}, fmt.Errorf("bot[%d].%s: %w (a live bot answers with its endpoint's model and settings)", i, key, errNotLive)
		}
		name := b.Name
		if name == "" {
			name = fmt.Sprintf("Agent %d", i+1)
		}
		lc.Bots = append(lc.Bots, roundtable.Participant{ID: fmt.Sprintf("agent-%s-%d", c.Name, i+1), Name: name, Kind: roundtable.Bot,
			Background: b.Background, Goal: b.Goal, Stance: b.Stance, Agent: "llm:" + b.Endpoint})
	}
	return lc, nil
}

// notLive is the first key of b live tables do not play, "" when none.
func (b Bot) notLive() string {
	switch {
	case b.Model != "":
		return "model"
	case b.Temperature != nil:
		return "temperature"
	case b.MaxTokens != 0:
		return "max_tokens"
	case b.Memory != "" && b.Memory != "full":
		return "memory"
	case b.Window != 0:
		return "window"
	case b.ContextChars != 0:
		return "context_chars"
	}
	return ""
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
	res, err := AnalyzeStudy(ctx, st, s, ids, StudyAnalyzeOptions{AnalyzeOptions: opt, Permutations: 200})
	if err != nil {
		return ConditionTable{}, res.Skipped, err
	}
	t, err := ReadConditionTable(dir)
	return t, res.Skipped, err
}
