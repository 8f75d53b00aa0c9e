package experiment

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
)

// writeIndex writes the study analysis' index.md: the design, the groups
// with their provenance, and what each file shows.
func (s *Study) writeIndex(opt StudyAnalyzeOptions, groups []*conditionGroup, skipped []string, perms int) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# Study %s: results per condition\n\nFrom `%s` (study file `%s`): %d conditions, %d replications each, seed %d.\n\n",
		s.Name, opt.Source, filepath.Base(s.Path), len(s.Conditions), s.Replications, s.Seed)
	b.WriteString("| condition | tables | recipe | provenance |\n|---|---|---|---|\n")
	for _, g := range groups {
		var provs []string
		for _, p := range g.Pooled {
			provs = append(provs, p.Markdown())
		}
		fmt.Fprintf(&b, "| [%s](conditions/%s/index.md) | %d | %s | %s |\n", g.Label, g.Label, len(g.Tables),
			s.recipeMarkdown(g.Condition), strings.Join(provs, "<br>"))
	}
	if opt.Pool {
		b.WriteString("\nTables of a condition are pooled whatever their provenance (--pool); the provenance column lists each.\n")
	} else {
		b.WriteString("\nTables of a condition whose provenance differs are separate groups (CONDITION-p1, -p2, ...); --pool pools them.\n")
	}
	fmt.Fprintf(&b, `
| file | what it shows |
|---|---|
| [conditions.csv](conditions.csv) | every metric per condition: mean over tables, standard error, 95%% interval (Student's t), n; a series per round, its last value as METRIC@final |
| [differences.csv](differences.csv) | for every pair of conditions and every scalar (and series' last value): the difference of the means (b minus a) and its two-sided permutation p-value (%d relabellings, seed %d) |
| conditions/NAME/ | the papers' tables and figures of each condition's tables (as `+"`roundtable analyze`"+` writes them) |
`, perms, opt.Seed)
	if len(skipped) > 0 {
		b.WriteString("\n## Not produced\n\n")
		for _, sk := range skipped {
			fmt.Fprintf(&b, "- %s\n", sk)
		}
	}
	path := filepath.Join(opt.Out, "index.md")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return path, fmt.Errorf("write %s: %w", path, err)
	}
	return path, nil
}

// recipeMarkdown says condition name's recipe in a table cell.
func (s *Study) recipeMarkdown(name string) string {
	for _, c := range s.Conditions {
		if c.Name == name {
			return c.Recipe.Summary()
		}
	}
	return ""
}

// Summary says the recipe in a line: its protocol or task, rule, rounds,
// seats and agents.
func (r Recipe) Summary() string {
	parts := []string{r.Protocol}
	if r.Protocol == "roundtable" {
		parts[0] = r.Task + " task"
	}
	if r.Question != "" {
		parts = append(parts, fmt.Sprintf("%q", r.Question))
	}
	if r.Protocol == "roundtable" {
		if r.Task == "exchange" {
			parts = append(parts, "preset "+r.Preset)
		}
		parts = append(parts, "rule "+r.Rule)
	}
	rounds := fmt.Sprintf("%d rounds", r.Rounds)
	if r.Rounds == 1 {
		rounds = "1 round"
	}
	parts = append(parts, rounds, fmt.Sprintf("%d seats", r.Seats))
	if r.Humans > 0 {
		parts = append(parts, fmt.Sprintf("%d of them people's", r.Humans))
	}
	agent := r.Agent
	if agent == "" {
		agent = "default"
	}
	parts = append(parts, "agents "+agent)
	parts = append(parts, r.settingsSet()...)
	for _, b := range r.Bots {
		if m := b.modelText(); m != "" {
			parts = append(parts, "bot "+m)
		}
	}
	if r.StandIn != nil {
		if m := r.StandIn.modelText(); m != "" {
			parts = append(parts, "stand-in "+m)
		}
	}
	return strings.Join(parts, ", ")
}

// modelText says what a bot's model is asked with, "" for the defaults.
func (b Bot) modelText() string {
	var parts []string
	if b.Name != "" {
		parts = append(parts, b.Name)
	}
	if b.Endpoint != "" {
		parts = append(parts, "endpoint "+b.Endpoint)
	}
	if b.Model != "" {
		parts = append(parts, "model "+b.Model)
	}
	if b.Temperature != nil {
		parts = append(parts, fmt.Sprintf("temperature %g", *b.Temperature))
	}
	if b.Memory != "" {
		parts = append(parts, "memory "+b.Memory)
	}
	return strings.Join(parts, " ")
}

// settingsSet are the protocol settings of r off the built-in recipe, as
// key=value.
func (r Recipe) settingsSet() []string {
	def := reflect.ValueOf(DefaultRecipe())
	v := reflect.ValueOf(r)
	var out []string
	for i := range v.NumField() {
		f := v.Type().Field(i)
		key := f.Tag.Get("toml")
		if !slices.Contains(protocolKeys(), key) || reflect.DeepEqual(v.Field(i).Interface(), def.Field(i).Interface()) {
			continue
		}
		out = append(out, fmt.Sprintf("%s=%v", key, v.Field(i).Interface()))
	}
	return out
}

// protocolKeys are the recipe's keys of the protocols' conditions.
func protocolKeys() []string {
	return []string{"alpha", "tolerance", "two_way", "stances", "weight", "mu", "epsilon", "confirmation_bias",
		"control", "memory", "framing", "claim", "closed_world", "complement", "context_chars", "persona_update"}
}
