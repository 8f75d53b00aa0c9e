package experiment

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// Study is an experiment by design, as a study file describes it: named
// conditions, each a whole table recipe, run Replications times each from
// Seed. Headless, bots sit in every seat (a stand-in in each person's);
// live, people are seated at the conditions' tables (the same recipes).
type Study struct {
	Name         string
	Seed         int64
	Replications int
	Conditions   []Condition
	// Path is the study file, Dir its directory (relative paths in the
	// recipes are read from there), Text its contents.
	Path, Dir string
	Text      []byte
}

// Condition is one named recipe of a study.
type Condition struct {
	Name string
	Recipe
}

// Recipe is everything a table of a condition is: its protocol and task,
// what it is about, its rule and rounds, its seats and what thinks in
// each. The keys are those of a study file's [defaults] and [[condition]].
type Recipe struct {
	Protocol  string   `toml:"protocol"` // roundtable (default), panel, chatroom, questionnaire or dyads
	Task      string   `toml:"task"`     // RoundTable's: exchange (default), text or recommendation
	Question  string   `toml:"question"` // the text task's question, or the protocol's statement, claim or brief
	Items     []string `toml:"items"`    // panel: the items evaluated
	ItemDir   string   `toml:"item_dir"` // panel: one document per item (NAME.txt or NAME.md)
	Roles     []string `toml:"roles"`    // panel: the judges' roles, one per seat
	Preset    string   `toml:"preset"`   // exchange: the preferences
	Data      string   `toml:"data"`     // recommendation: the MovieLens-100k directory
	Rule      string   `toml:"rule"`
	Tie       string   `toml:"tie"`
	EarlyStop string   `toml:"early_stop"`
	Quorum    int      `toml:"quorum"`
	Rounds    int      `toml:"rounds"`
	// Seats is every seat of a table; Humans of them are people's at a
	// live table, played headless by StandIn.
	Seats  int `toml:"seats"`
	Humans int `toml:"humans"`
	// Agent is the bots' kind: utility, baseline, llm or a protocol's
	// model-free kind ("" the task's or protocol's default).
	Agent     string    `toml:"agent"`
	Bots      []Bot     `toml:"bot"`
	StandIn   *Bot      `toml:"stand_in"`
	Durations Durations `toml:"durations"`
	// PhaseTimeout bounds a headless phase's wait for its agents.
	PhaseTimeout string `toml:"phase_timeout"`
	// Audit names the live audit's instruments (sentiment, stance) on
	// Question.
	Audit []string `toml:"audit"`
	// The protocols' conditions, as in the config's [sim] section.
	Alpha            float64 `toml:"alpha"`
	Tolerance        float64 `toml:"tolerance"`
	TwoWay           bool    `toml:"two_way"`
	Stances          string  `toml:"stances"`
	Weight           float64 `toml:"weight"`
	Mu               float64 `toml:"mu"`
	Epsilon          float64 `toml:"epsilon"`
	ConfirmationBias string  `toml:"confirmation_bias"`
	Control          string  `toml:"control"`
	Memory           string  `toml:"memory"` // dyads: cumulative or reflective
	Framing          string  `toml:"framing"`
	Claim            string  `toml:"claim"`
	ClosedWorld      bool    `toml:"closed_world"`
	Complement       string  `toml:"complement"`
	ContextChars     int     `toml:"context_chars"`  // chatroom: a model agent's memory in characters
	PersonaUpdate    string  `toml:"persona_update"` // chatroom: signal, signal:ENDPOINT, lexicon or none
}

// Bot is a bot seat of a recipe: its persona (RoundTable's tasks; a
// protocol makes its own) and what its language model is asked with.
type Bot struct {
	Name         string   `toml:"name"`
	Background   string   `toml:"background"`
	Goal         string   `toml:"goal"`
	Stance       string   `toml:"stance"`
	Endpoint     string   `toml:"endpoint"` // an [[llm]] endpoint of the config ("" the first)
	Model        string   `toml:"model"`    // instead of the endpoint's
	Temperature  *float64 `toml:"temperature"`
	MaxTokens    int      `toml:"max_tokens"`
	Memory       string   `toml:"memory"` // full, window or reflective (RoundTable's tasks)
	Window       int      `toml:"window"`
	ContextChars int      `toml:"context_chars"`
}

// Durations are a live table's phase deadlines ("3m"); "" is none.
type Durations struct {
	Message  string `toml:"message"`
	Proposal string `toml:"proposal"`
	Vote     string `toml:"vote"`
}

// studyFile is a study file as written.
type studyFile struct {
	Name         string          `toml:"name"`
	Seed         int64           `toml:"seed"`
	Replications int             `toml:"replications"`
	Defaults     Recipe          `toml:"defaults"`
	Conditions   []conditionFile `toml:"condition"`
	Grid         map[string]any  `toml:"grid"`
}

type conditionFile struct {
	Name string         `toml:"name"`
	Grid map[string]any `toml:"grid"` // crosses this condition only
	Recipe
}

// DefaultRecipe is what a study file's recipes start from: the papers'
// defaults, as `roundtable sim` has them.
func DefaultRecipe() Recipe {
	return Recipe{Protocol: "roundtable", Task: "exchange", Preset: "asymmetric", Rule: "majority", Tie: "defer", EarlyStop: "none",
		Rounds: 10, Seats: 3, PhaseTimeout: "2m", Alpha: 0.5, Tolerance: 1e-5, Stances: "uniform", Weight: 0.5, Mu: 0.3, Epsilon: 1,
		ConfirmationBias: "none", Control: "none", Memory: "cumulative"}
}

// ReadStudy reads and checks the study file at path (ParseStudy). The
// recipes' relative paths (item_dir, data) are read from dir, "" the
// file's directory: a run's copy of a study file reads them where the
// study was.
func ReadStudy(path, dir string) (*Study, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read study: %w", err)
	}
	return parseStudy(path, cmp.Or(dir, filepath.Dir(path)), data)
}

// namePattern is what a study's and a condition's names may hold: they
// name tables (STUDY-CONDITION-0001).
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ParseStudy reads a study file's text: strictly (an unknown key is an
// error), then each condition crossed with the grid, merged over the
// defaults and checked as a table recipe. An error names the file, the
// line, the condition and the key.
func ParseStudy(path string, data []byte) (*Study, error) {
	return parseStudy(path, filepath.Dir(path), data)
}

func parseStudy(path, dir string, data []byte) (*Study, error) {
	f := studyFile{Seed: 1, Replications: 10}
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("study %s: %s", path, TOMLError(err))
	}
	lines := studyLines(data)
	at := func(section string, i int, key string) string {
		return fmt.Sprintf("study %s:%d", path, lines.of(section, i, key))
	}
	switch {
	case !namePattern.MatchString(f.Name):
		return nil, fmt.Errorf("%s: name: %q must be letters, digits, '.', '_' or '-' (it names the tables)", at("", 0, "name"), f.Name)
	case f.Replications < 1:
		return nil, fmt.Errorf("%s: replications: %d must be at least 1", at("", 0, "replications"), f.Replications)
	}
	var raw struct {
		Defaults  map[string]any   `toml:"defaults"`
		Condition []map[string]any `toml:"condition"`
	}
	if err := toml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("study %s: %s", path, TOMLError(err))
	}
	s := &Study{Name: f.Name, Seed: f.Seed, Replications: f.Replications, Path: path, Dir: dir, Text: data}
	base := DefaultRecipe()
	if err := merge(&base, raw.Defaults); err != nil {
		return nil, fmt.Errorf("%s: defaults: %v", at("defaults", 0, ""), err)
	}
	conds := raw.Condition
	if len(conds) == 0 {
		conds = []map[string]any{{}}
	}
	for i, c := range conds {
		name, _ := c["name"].(string)
		if len(raw.Condition) > 0 && !namePattern.MatchString(name) {
			return nil, fmt.Errorf("%s: condition[%d].name: %q must be letters, digits, '.', '_' or '-' (it names the tables)", at("condition", i, "name"), i, name)
		}
		delete(c, "name")
		own, _ := c["grid"].(map[string]any)
		delete(c, "grid")
		cells, err := gridCells(f.Grid, own)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", at(gridSection(own, i)), err)
		}
		for _, cell := range cells {
			r := base
			if err := merge(&r, c); err != nil {
				return nil, fmt.Errorf("%s: condition %q: %v", at("condition", i, ""), name, err)
			}
			if err := merge(&r, cell.values); err != nil {
				return nil, fmt.Errorf("%s: grid: %v", at(gridSection(own, i)), err)
			}
			r.ownRule(c, cell.values, raw.Defaults)
			cond := Condition{Name: joinName(name, cell.name), Recipe: r}
			if slices.ContainsFunc(s.Conditions, func(o Condition) bool { return o.Name == cond.Name }) {
				return nil, fmt.Errorf("%s: condition %q is named twice", at("condition", i, "name"), cond.Name)
			}
			if key, err := cond.check(s); err != nil {
				section, idx := origin(topKey(key), c, cell.values, raw.Defaults, len(raw.Condition) > 0)
				if section == "condition" {
					idx = i
				}
				if own[topKey(key)] != nil {
					section, idx, key = "condition", i, "grid."+topKey(key)
				}
				return nil, fmt.Errorf("study %s:%d: condition %q: %v", path, lines.of(section, idx, key), cond.Name, err)
			}
			s.Conditions = append(s.Conditions, cond)
		}
	}
	return s, nil
}

// gridSection is where the grid of condition i is: its own, or the
// file's.
func gridSection(own map[string]any, i int) (string, int, string) {
	if own != nil {
		return "condition", i, "grid"
	}
	return "grid", 0, ""
}

// origin is the section that set key of a condition: the grid's cell,
// the condition, the defaults, or none (the built-in default: the
// condition's header, or the top of a file without conditions).
func origin(key string, cond, cell, defaults map[string]any, conditions bool) (string, int) {
	switch {
	case cell[key] != nil:
		return "grid", 0
	case cond[key] != nil:
		return "condition", 0
	case defaults[key] != nil:
		return "defaults", 0
	case conditions:
		return "condition", 0
	}
	return "", 0
}

// topKey is the recipe's key of a key path ("bot" of "bot[1].model").
func topKey(key string) string {
	if i := strings.IndexAny(key, ".["); i >= 0 {
		return key[:i]
	}
	return key
}

// ownRule gives a protocol with a rule of its own (a mediation ranks by
// Schulze and draws among tied statements) that rule and tie policy where
// none of the sections sets them, as `roundtable sim` does.
func (r *Recipe) ownRule(sections ...map[string]any) {
	rule, tie, ok := protocol.RuledOf(r.Protocol)
	if !ok {
		return
	}
	unset := func(key string) bool {
		return !slices.ContainsFunc(sections, func(m map[string]any) bool { return m[key] != nil })
	}
	if unset("rule") {
		r.Rule = string(rule)
	}
	if unset("tie") {
		r.Tie = string(tie)
	}
}

// merge decodes the keys of values over r: keys it does not set keep r's.
func merge(r *Recipe, values map[string]any) error {
	if len(values) == 0 {
		return nil
	}
	b, err := toml.Marshal(values)
	if err != nil {
		return err
	}
	if err := toml.NewDecoder(bytes.NewReader(b)).DisallowUnknownFields().Decode(r); err != nil {
		return errors.New(tomlValueError(err))
	}
	return nil
}

// joinName names a condition of the grid: the condition's name and the
// cell's, joined by "_".
func joinName(cond, cell string) string {
	switch {
	case cond == "":
		if cell == "" {
			return "all"
		}
		return cell
	case cell == "":
		return cond
	}
	return cond + "_" + cell
}
