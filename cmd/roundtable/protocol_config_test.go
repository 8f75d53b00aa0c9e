package main

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// A [[table]] preset takes a protocol with its parameters; a bad one is
// refused naming the key and the file.
func TestTablePresetProtocol(t *testing.T) {
	path := writeConfig(t, "[[table]]\nname = \"panel\"\nprotocol = \"panel\"\nquestion = \"How good a fit?\"\nitems = [\"Ann\", \"Ben\"]\ntolerance = 0.01\nrounds = 4\n")
	cfg, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := cfg.Tables[0].config(cfg.Bot, "table[0]")
	if err != nil {
		t.Fatal(err)
	}
	pr := tc.Protocol
	if pr == nil || pr.Name != roundtable.ProtocolPanel || pr.Stop.Tolerance != 0.01 || len(pr.Round[1].Scale.Items) != 2 || tc.Task.Topic != "How good a fit?" {
		t.Errorf("protocol %+v, topic %q", pr, tc.Task.Topic)
	}
	bad := writeConfig(t, "[[table]]\nname = \"x\"\nprotocol = \"fishbowl\"\n")
	if _, err := LoadConfig(bad); err == nil || !strings.Contains(err.Error(), "table[0].protocol") || !strings.Contains(err.Error(), bad) {
		t.Errorf("unknown protocol: %v", err)
	}
}

// serve's built-in presets seat model-free agents for each protocol.
func TestProtocolPresetsSeatModelFreeAgents(t *testing.T) {
	app := &App{}
	cfg := DefaultConfig()
	m, err := app.newMinds(cfg, llmFlags{}, mindOptions{seats: 4})
	if err != nil {
		t.Fatal(err)
	}
	bc, err := app.botConfig(cfg, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{roundtable.ProtocolChatroom, roundtable.ProtocolDyads, roundtable.ProtocolPanel} {
		p, ok := bc.Presets[name]
		if !ok || p.Config.Protocol == nil || p.Config.Validate() != nil {
			t.Fatalf("preset %s: %+v", name, p)
		}
		for _, a := range p.Agents {
			if _, err := m.agent(bc.Agents[a], roundtable.TextTask{Topic: "t"}); err != nil {
				t.Errorf("preset %s, agent %s: %v", name, a, err)
			}
		}
	}
}
