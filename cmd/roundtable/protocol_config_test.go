package main

import (
	"context"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
)

// A [[table]] preset takes a protocol with its parameters; a bad one is
// refused naming the key and the file.
func TestTablePresetProtocol(t *testing.T) {
	_, tc := firstPreset(t, "[[table]]\nname = \"panel\"\nprotocol = \"panel\"\nquestion = \"How good a fit?\"\nitems = [\"Ann\", \"Ben\"]\ntolerance = 0.01\nrounds = 4\n")
	pr := tc.Protocol
	if pr == nil || pr.Name != panel.Name || pr.Stop.Tolerance != 0.01 || len(pr.Round[1].Scale.Items) != 2 || tc.Task.Topic != "How good a fit?" {
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
	for _, name := range []string{chatroom.Name, dyads.Name, panel.Name} {
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

// A [[table]] refuses, when the config is read, a model-free agent that
// cannot play it, naming the key; the Facilitator sits at every protocol.
func TestTablePresetRefusesAgentsThatCannotPlayIt(t *testing.T) {
	app := &App{}
	for _, c := range []struct{ body, want string }{
		{"[[table]]\nname = \"c\"\nprotocol = \"chatroom\"\nquestion = \"q\"\nagents = [\"Trader 1\"]\n", "table[0].agents[0]: \"Trader 1\" is a rule-based trader"},
		{"[[table]]\nname = \"c\"\nprotocol = \"chatroom\"\nquestion = \"q\"\nagents = [\"Facilitator\", \"Ada (DeGroot)\"]\n", "table[0].agents[1]: \"Ada (DeGroot)\" is a model-free degroot agent of the dyads protocol, not of a chatroom protocol table"},
		{"[[table]]\nname = \"c\"\nprotocol = \"chatroom\"\nquestion = \"q\"\nagents = [\"Facilitator\", \"Pat (agrees)\"]\n", ""},
		{"[[table]]\nname = \"d\"\nprotocol = \"dyads\"\nquestion = \"q\"\nagents = [\"Facilitator\", \"Ada (DeGroot)\"]\n", ""},
	} {
		cfg, err := LoadConfig(writeConfig(t, c.body))
		if err != nil {
			t.Fatal(err)
		}
		m, err := app.newMinds(cfg, llmFlags{}, mindOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = app.botConfig(cfg, m)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.body, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.body, err, c.want)
		}
	}
}

// A built-in protocol table started on a topic of one's own surveys that
// topic, not the preset's (before, the chatroom and dyads tables made from
// the web lobby's form kept the preset's question); the panel's question
// about its items is not its topic and stays.
func TestLiveProtocolTablesSurveyTheTopicTheyStartOn(t *testing.T) {
	d, db, stop := embeddedService(t)
	want := map[string]string{} // topic -> question
	for _, preset := range []string{"chatroom", "dyads", "panel"} {
		topic := "Pizza is a vegetable (" + preset + ")."
		want[topic] = topic
		d.command(bottest.Alice, d.ch, "start", map[string]string{"preset": preset, "topic": topic})
		d.sees(bottest.Alice, "in its own thread")
	}
	want["Pizza is a vegetable (panel)."] = "How good a fit is each candidate?"
	stop()
	sums, err := db.Tables(context.Background())
	if err != nil || len(sums) != 3 {
		t.Fatalf("%d tables, %v", len(sums), err)
	}
	for _, sum := range sums {
		evs, err := db.Load(context.Background(), sum.ID)
		if err != nil {
			t.Fatal(err)
		}
		cfg := evs[0].Data.(roundtable.TableCreated).Config
		for st := range cfg.Protocol.Steps() {
			if st.Scale != nil && st.Scale.Question != want[cfg.Task.Topic] {
				t.Errorf("the table on %q surveys %q, want %q", cfg.Task.Topic, st.Scale.Question, want[cfg.Task.Topic])
			}
		}
	}
}
