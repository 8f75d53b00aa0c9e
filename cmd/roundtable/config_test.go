package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestExampleConfigIsDefault(t *testing.T) {
	cfg, err := LoadConfig(filepath.Join("..", "..", "config.example.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := DefaultConfig(); !reflect.DeepEqual(cfg, want) {
		t.Errorf("config.example.toml decodes to\n%+v\nwant the embedded defaults\n%+v", cfg, want)
	}
}

func TestConfigErrorsNameKeyAndFile(t *testing.T) {
	cases := map[string]struct{ body, want string }{
		"unknown key":   {"[sim]\nrulez = \"x\"\n", `unknown key "sim.rulez" (line 2)`},
		"bad duration":  {"[store]\nlock_timeout = \"soon\"\n", "duration"},
		"llm no model":  {"[[llm]]\nname = \"a\"\nbase_url = \"http://x/v1\"\n", "llm[0].model: is empty"},
		"bad endpoint":  {"[[agent]]\nname = \"Ada\"\nendpoint = \"nope\"\n", `agent[0].endpoint: no [[llm]] endpoint is named "nope"`},
		"bad memory":    {"[[agent]]\nname = \"Ada\"\nmemory = \"long\"\n", `agent[0].memory: "long" is not full, window or reflective`},
		"unknown audit": {"[bot]\naudit = [\"mood\"]\n", `bot: audit: unknown instrument "mood"`},
		"stance without statement": {"[[table]]\nname = \"a\"\ntopic = \"T\"\naudit = [\"stance\"]\n",
			"table[0]: audit_statement: a stance audit or a self-report needs the statement under audit"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.toml")
			if err := os.WriteFile(path, []byte(c.body), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := LoadConfig(path)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %v; want it to contain %q and the file name", err, c.want)
			}
		})
	}
}

func TestTablePresetDecodesSharedSettings(t *testing.T) {
	cfg, tc := firstPreset(t, "[[table]]\nname = \"lunch\"\ntopic = \"Where?\"\nrule = \"ranked\"\nrounds = 4\nvote = \"45s\"\nagents = [\"Facilitator\"]\n")
	if tc.Rule != "ranked" || tc.Rounds != 4 || tc.Durations.Vote.Seconds() != 45 || tc.Durations.Message != time.Duration(cfg.Bot.Message) {
		t.Errorf("preset config %+v: want ranked, 4 rounds, 45s votes and [bot]'s message deadline", tc)
	}
	if got := cfg.Tables[0].Agents; len(got) != 1 || got[0] != "Facilitator" {
		t.Errorf("agents %v", got)
	}
}
