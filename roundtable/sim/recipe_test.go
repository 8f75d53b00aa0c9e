package sim_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// modelTrader is a utility trader that says it thinks with a model: the
// provenance its seat records, and the model its actions say answered.
type modelTrader struct {
	roundtable.Agent
	asked, answered string
}

func (m modelTrader) Provenance(*roundtable.Protocol) roundtable.AgentProvenance {
	return roundtable.AgentProvenance{Endpoint: "lab", Model: m.asked, Template: "0123456789ab"}
}

func (m modelTrader) Act(ctx context.Context, v roundtable.View) (roundtable.Action, error) {
	a, err := m.Agent.Act(ctx, v)
	u := &roundtable.Usage{Calls: 1, Model: m.answered}
	switch x := a.(type) {
	case roundtable.Propose:
		x.Usage = u
		return x, err
	case roundtable.Cast:
		x.Usage = u
		return x, err
	}
	return a, err
}

// modelSpec is exchangeSpec with its first seat played by a trader that
// asks model asked and is answered by answered.
func modelSpec(t *testing.T, asked, answered string) sim.Spec {
	spec := exchangeSpec(t, vote.Majority, 2)
	setup := spec.Setup
	spec.Setup = func(i int, seed int64) (sim.Table, error) {
		tb, err := setup(i, seed)
		tb.Agents["a1"] = modelTrader{Agent: tb.Agents["a1"], asked: asked, answered: answered}
		return tb, err
	}
	return spec
}

// TestAnotherRecipeIsNeverReused: tables whose seat asks model A are not
// reused for model B: the run stops naming the key, or with NewTables
// starts tables of B beside A's, which a second run of B reuses. Each
// table records what its seat asked, and the result which models answered.
func TestAnotherRecipeIsNeverReused(t *testing.T) {
	ctx := context.Background()
	st := roundtabletest.NewMemStore()
	a, err := sim.Execute(ctx, st, roundtable.SystemClock{}, modelSpec(t, "A", "A-0601"))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Agents) != 1 || a.Agents[0].Model != "A" || a.Agents[0].Seats != 2 || strings.Join(a.Agents[0].Answered, ",") != "A-0601" {
		t.Errorf("agents of A's result: %+v", a.Agents)
	}
	if len(a.Software) != 1 || a.Software[0] != roundtable.RunningSoftware() {
		t.Errorf("software of A's result: %+v, want the running build's", a.Software)
	}
	_, err = sim.Execute(ctx, st, roundtable.SystemClock{}, modelSpec(t, "B", "B"))
	var re *sim.RecipeError
	if !errors.As(err, &re) || re.Keys[0] != `provenance.agents.a1.model: "A" stored, "B" asked` {
		t.Fatalf("B over A's tables: %v, want a refusal naming the model", err)
	}

	spec := modelSpec(t, "B", "B")
	spec.NewTables = true
	for pass := range 2 {
		b, err := sim.Execute(ctx, st, roundtable.SystemClock{}, spec)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range b.Runs {
			if r.Table == a.Runs[i].Table || !strings.HasPrefix(r.Table, a.Runs[i].Table+"-") {
				t.Errorf("pass %d: B's table %s beside A's %s", pass, r.Table, a.Runs[i].Table)
			}
			if r.Resumed != (pass == 1) {
				t.Errorf("pass %d: table %s resumed %v", pass, r.Table, r.Resumed)
			}
		}
		if b.Agents[0].Model != "B" {
			t.Errorf("B's result says its seats asked %q", b.Agents[0].Model)
		}
	}
	again, err := sim.Execute(ctx, st, roundtable.SystemClock{}, modelSpec(t, "A", "A-0601"))
	if err != nil || !again.Runs[0].Resumed || again.Runs[0].Table != a.Runs[0].Table {
		t.Errorf("A again: %v, %+v: want A's tables reused", err, again.Runs)
	}
}

// TestRecipeDiffIgnoresTheBuild: tables made by another build are the same
// recipe; a table made before provenance was recorded is the same as one
// without model seats.
func TestRecipeDiffIgnoresTheBuild(t *testing.T) {
	c := roundtable.Config{Rule: vote.Majority, Rounds: 3,
		Provenance: &roundtable.Provenance{Software: roundtable.Software{Version: "v1", Revision: "abc"},
			Agents: map[string]roundtable.AgentProvenance{"p": {Endpoint: "e", Model: "m"}}}}
	other := c
	other.Provenance = &roundtable.Provenance{Software: roundtable.Software{Version: "v2", Revision: "def", Modified: true}, Agents: c.Provenance.Agents}
	if keys, err := sim.RecipeDiff(c, other); err != nil || len(keys) != 0 {
		t.Errorf("another build: %v %v", keys, err)
	}
	bare, old := c, c
	bare.Provenance, old.Provenance = &roundtable.Provenance{Software: roundtable.RunningSoftware()}, nil
	if keys, err := sim.RecipeDiff(old, bare); err != nil || len(keys) != 0 {
		t.Errorf("no model seats and no provenance: %v %v", keys, err)
	}
	keys, _ := sim.RecipeDiff(old, c)
	if len(keys) != 2 || keys[0] != `provenance.agents.p.endpoint: none stored, "e" asked` {
		t.Errorf("an old log against model seats: %v", keys)
	}
}
