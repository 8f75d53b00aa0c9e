package main

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

func TestTablePresetMakesBallotsSecret(t *testing.T) {
	_, tc := firstPreset(t, "[[table]]\nname = \"vote\"\ntopic = \"Who chairs?\"\nsecret_ballot = true\nsecret_research = true\n")
	if !tc.Secret.Ballots || !tc.Secret.Research {
		t.Errorf("secret %+v: want secret ballots kept for research", tc.Secret)
	}
}

func TestSecretResearchWithoutSecretBallotNamesKeyAndFile(t *testing.T) {
	path := writeConfig(t, "[[table]]\nname = \"bad\"\ntopic = \"x\"\nsecret_research = true\n")
	_, err := LoadConfig(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "secret_research") {
		t.Errorf("LoadConfig = %v, want an error naming %s and secret_research", err, path)
	}
}

// firstPreset loads a config file of body and returns it and the table
// config of its first [[table]] preset.
func firstPreset(t *testing.T, body string) (Config, roundtable.Config) {
	t.Helper()
	cfg, err := LoadConfig(writeConfig(t, body))
	if err != nil {
		t.Fatal(err)
	}
	tc, err := cfg.Tables[0].config(cfg.Bot, "table[0]")
	if err != nil {
		t.Fatal(err)
	}
	return cfg, tc
}
