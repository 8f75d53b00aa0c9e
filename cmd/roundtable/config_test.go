package main

import (
	"fmt"
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
		"unknown key":               {"[sim]\nrulez = \"x\"\n", `unknown key "sim.rulez" (line 2)`},
		"bad duration":              {"[store]\nlock_timeout = \"soon\"\n", "duration"},
		"wrong type":                {"[bot]\nquorum = \"three\"\n", "bot.quorum (line 2, column 10): expected an integer, found a string"},
		"float for int":             {"[sim]\nruns = 1.5\n", "sim.runs (line 2, column 8): expected an integer, found a float"},
		"string for list":           {"[bot]\nagents = \"Facilitator\"\n", "bot.agents (line 2, column 10): expected an array of strings, found a string"},
		"number for duration":       {"[bot]\nvote = 120\n", `bot.vote: want a duration string such as "30s" or "2m", not 120 (a number has no unit)`},
		"number for table duration": {"[[table]]\nname = \"t\"\nmessage = 90\n", "table[0].message: want a duration string"},
		"bad web addr":              {"[web]\naddr = \"nonsense\"\n", `web.addr: "nonsense" is not HOST:PORT`},
		"bad web port":              {"[web]\naddr = \"127.0.0.1:http\"\n", `web.addr: "127.0.0.1:http": the port must be a number`},
		"bad public url":            {"[web]\npublic_url = \"class.example.org\"\n", `web.public_url: "class.example.org": want an http:// or https:// address`},
		"negative duration":         {"[bot]\nmessage = \"-5m\"\n", "bot: message: the phase duration -5m0s is negative"},
		"unknown rule":              {"[bot]\nrule = \"bordaa\"\n", `bot.rule: unknown rule "bordaa"`},
		"unknown table rule":        {"[[table]]\nname = \"t\"\nrule = \"nope\"\n", `table[0].rule: unknown rule "nope"`},
		"llm no model":              {"[[llm]]\nname = \"a\"\nbase_url = \"http://x/v1\"\n", "llm[0].model: is empty"},
		"bad endpoint":              {"[[agent]]\nname = \"Ada\"\nendpoint = \"nope\"\n", `agent[0].endpoint: no [[llm]] endpoint is named "nope"`},
		"bad memory":                {"[[agent]]\nname = \"Ada\"\nmemory = \"long\"\n", `agent[0].memory: "long" is not full, window or reflective`},
		"unknown audit":             {"[bot]\naudit = [\"mood\"]\n", `bot: audit: unknown instrument "mood"`},
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

func TestServeConfigErrorsNameKeyAndFile(t *testing.T) {
	cases := map[string]struct{ body, args, want string }{
		"discord": {"[discord]\ntoken_env = \"RT_NO_SUCH_TOKEN\"\n", "serve", "discord.token_env: the environment variable RT_NO_SUCH_TOKEN is empty or unset"},
		"shards":  {"[discord]\nshards = \"4-2/16\"\n", "serve", `discord.shards: shards "4-2/16": want 0 <= FIRST <= LAST < 16`},
		"slack":   {"[slack]\nbot_token_env = \"RT_NO_BOT\"\napp_token_env = \"RT_NO_APP\"\n", "serve", "slack.bot_token_env: the environment variable RT_NO_BOT is empty or unset"},
		"agent":   {"[bot]\nagents = [\"Nobody\"]\n", "serve", `bot.agents[0]: no agent is named "Nobody"`},
		"llm key": {"[[llm]]\nname = \"x\"\nbase_url = \"http://127.0.0.1:1/v1\"\nmodel = \"m\"\napi_key_env = \"RT_NO_KEY\"\n", "sim --agent llm --runs 1",
			"llm[0].api_key_env: the environment variable RT_NO_KEY is empty or unset"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "roundtable.toml")
			body := fmt.Sprintf("[store]\npath = %q\n[web]\naddr = \"127.0.0.1:0\"\n%s", filepath.Join(dir, "rt.db"), c.body)
			if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"--config", path}, strings.Fields(c.args)...)
			if c.args != "serve" {
				args = append(args, "--out", dir)
			}
			code, _, errOut := run(t, "", args...)
			if code == 0 || !strings.Contains(errOut, "config "+path+": "+c.want) {
				t.Errorf("exit %d, stderr %q; want a failure and %q with the file", code, errOut, c.want)
			}
		})
	}
}

// TestBadShardsFlagIsAUsageError gives serve shards it cannot run: a
// range it cannot read, and shards without a Discord bot.
func TestBadShardsFlagIsAUsageError(t *testing.T) {
	code, _, errOut := run(t, "", "serve", "--shards", "0-3")
	if code != 2 || !strings.Contains(errOut, "--shards: the config has no [discord] bot to shard") {
		t.Errorf("exit %d, stderr %q; want exit 2 saying there is no bot", code, errOut)
	}
	path := writeConfig(t, "[discord]\ntoken_env = \"RT_NO_SUCH_TOKEN\"\n")
	code, _, errOut = run(t, "", "--config", path, "serve", "--shards", "0-3")
	if code != 2 || !strings.Contains(errOut, `--shards: shards "0-3": want FIRST-LAST/COUNT`) {
		t.Errorf("exit %d, stderr %q; want exit 2 naming the flag", code, errOut)
	}
}

func TestBadWebAddrFlagIsAUsageError(t *testing.T) {
	code, _, errOut := run(t, "", "serve", "--web-addr", "8080")
	if code != 2 || !strings.Contains(errOut, `--web-addr: "8080" is not HOST:PORT`) {
		t.Errorf("exit %d, stderr %q; want exit 2 naming the flag", code, errOut)
	}
}
