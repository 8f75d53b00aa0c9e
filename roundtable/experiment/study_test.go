package experiment_test

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/experiment"
)

const sampleStudy = `# a sample study
name = "sample"
seed = 3
replications = 2

[defaults]
task = "exchange"
rounds = 4

[[condition]]
name = "small"
seats = 3

[[condition]]
name = "models"
task = "text"
question = "Which feature next?"
agent = "llm"
humans = 1

[[condition.bot]]
name = "Ada"
model = "m-a"
temperature = 0.2

[condition.stand_in]
name = "Stand-in"
memory = "window"

[grid]
rule = ["majority", "borda"]
`

// TestParseStudyCrossesTheGrid: each condition is crossed with the grid,
// over the defaults and the built-in recipe.
func TestParseStudyCrossesTheGrid(t *testing.T) {
	s, err := experiment.ParseStudy("sample.toml", []byte(sampleStudy))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range s.Conditions {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, " "); got != "small_rule-majority small_rule-borda models_rule-majority models_rule-borda" {
		t.Errorf("conditions %s", got)
	}
	if s.Seed != 3 || s.Replications != 2 {
		t.Errorf("seed %d, replications %d", s.Seed, s.Replications)
	}
	m := s.Conditions[3].Recipe
	if m.Rule != "borda" || m.Rounds != 4 || m.Task != "text" || m.Seats != 3 || m.Preset != "asymmetric" || len(m.Bots) != 1 ||
		*m.Bots[0].Temperature != 0.2 || m.StandIn.Memory != "window" {
		t.Errorf("models_rule-borda: %+v", m)
	}
	o, err := s.Options(s.Conditions[3], nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.Name != "sample-models_rule-borda" || o.Labels["condition"] != "models_rule-borda" || o.Humans != 1 || o.Runs != 2 || o.Bots[0].Model.Model != "m-a" {
		t.Errorf("options %+v", o)
	}
}

// TestParseStudyRefusesNamingKeyAndLine: unknown keys and impossible
// combinations are errors naming the line, the condition and the key.
func TestParseStudyRefusesNamingKeyAndLine(t *testing.T) {
	cases := []struct {
		name, file, want string
	}{
		{"unknown key", "name = \"s\"\n[[condition]]\nname = \"a\"\nrouns = 3\n", `unknown key "condition.rouns" (line 4)`},
		{"unknown bot key", "name = \"s\"\n[[condition]]\nname = \"a\"\n[[condition.bot]]\nmodle = \"x\"\n", `unknown key "condition.bot.modle" (line 5)`},
		{"wrong type", "name = \"s\"\n[defaults]\nrounds = \"ten\"\n", `defaults.rounds (line 3, column 10): expected an integer, found a string`},
		{"bad rule", "name = \"s\"\n[[condition]]\nname = \"a\"\nrule = \"majorty\"\n", `study f.toml:4: condition "a": rule:`},
		{"rule from defaults", "name = \"s\"\n[defaults]\nrule = \"nope\"\n[[condition]]\nname = \"a\"\n", `study f.toml:3: condition "a": rule:`},
		{"model for utility agents", "name = \"s\"\n[[condition]]\nname = \"a\"\n\n[[condition.bot]]\nmodel = \"m\"\n", `study f.toml:2: condition "a": agent: bot[0] sets a model, but the agents ask no model (agent not set)`},
		{"no bot seat", "name = \"s\"\n[[condition]]\nname = \"a\"\nseats = 2\nhumans = 2\n", `study f.toml:5: condition "a": humans: 2 people's seats at a table of 2`},
		{"persona at a protocol", "name = \"s\"\n[[condition]]\nname = \"a\"\nprotocol = \"chatroom\"\nquestion = \"Q.\"\nagent = \"llm\"\n[[condition.bot]]\nmodel = \"m\"\nname = \"Ada\"\n",
			`study f.toml:9: condition "a": bot[0].name: the chatroom protocol makes its seats' personas`},
		{"setting of another protocol", "name = \"s\"\n[[condition]]\nname = \"a\"\nprotocol = \"chatroom\"\nquestion = \"Q.\"\ncontrol = \"no-interaction\"\n",
			`study f.toml:6: condition "a": control: a setting of the dyads protocol`},
		{"grid key", "name = \"s\"\n[grid]\nrules = [\"borda\"]\n", `study f.toml:2: grid.rules: not a key of a condition`},
		{"grid value", "name = \"s\"\n[grid]\nrounds = [\"ten\"]\n", `study f.toml:2: grid: rounds: expected an integer, found a string`},
		{"grid no list", "name = \"s\"\n[grid]\nrounds = 5\n", `grid.rounds: want a list of values`},
		{"duration", "name = \"s\"\n[[condition]]\nname = \"a\"\n[condition.durations]\nvote = \"2\"\n", `study f.toml:5: condition "a": durations.vote: want a positive duration`},
		{"twice", "name = \"s\"\n[[condition]]\nname = \"a\"\n[[condition]]\nname = \"a\"\n", `condition "a" is named twice`},
		{"name", "name = \"a b\"\n", `study f.toml:1: name: "a b" must be letters`},
		{"no question", "name = \"s\"\n[[condition]]\nname = \"a\"\nprotocol = \"dyads\"\n", `study f.toml:2: condition "a": question: the dyads protocol needs`},
		{"audit", "name = \"s\"\n[[condition]]\nname = \"a\"\naudit = [\"mood\"]\n", `study f.toml:4: condition "a": audit: unknown instrument "mood"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := experiment.ParseStudy("f.toml", []byte(c.file))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant it to contain %s", err, c.want)
			}
		})
	}
}
