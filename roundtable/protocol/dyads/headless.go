package dyads

import (
	"fmt"
	"math"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// AgentKinds implements protocol.Agents: DeGroot (the default) and
// Deffuant dyads.
func (definition) AgentKinds() []string { return []string{string(DeGroot), string(Deffuant)} }

// Agent implements protocol.Agents.
func (definition) Agent(kind string, s protocol.Settings) (roundtable.Agent, error) {
	switch Update(kind) {
	case DeGroot:
		return Dyad{Rule: DeGroot, Weight: s.Weight, Memory: s.Memory, Bias: s.ConfirmationBias}, nil
	case Deffuant:
		return Dyad{Rule: Deffuant, Mu: s.Mu, Epsilon: s.Epsilon, Memory: s.Memory, Bias: s.ConfirmationBias}, nil
	}
	return nil, fmt.Errorf("%q is not a dyads agent", kind)
}

// Seats implements protocol.Headless: stances drawn by s.Stances (none
// under the no-role-play control); a language model plays a persona drawn
// from the seed that holds its stance, told of the closed world and its
// confirmation bias as asked.
func (definition) Seats(s protocol.Settings, seed int64, k int) ([]roundtable.Participant, error) {
	bias, err := opinion.BiasInstruction(s.ConfirmationBias)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", s.Field("confirmation_bias"), err)
	}
	if bias != "" && s.Control == ControlNoRolePlay {
		return nil, fmt.Errorf("%s: the no-role-play control has no persona to carry a bias; use %s no-interaction", s.Field("confirmation_bias"), s.Field("control"))
	}
	ps, stances, err := protocol.StanceSeats(s, seed, k)
	if err != nil {
		return nil, err
	}
	for i := range ps {
		switch {
		case s.Control == ControlNoRolePlay:
			ps[i].Stance = "" // the control: no persona, no initial belief
		case s.Agent == "llm":
			ps[i].Name, ps[i].Background = Persona(seed, i+1, Question(s), stances[i])
			if s.ClosedWorld {
				ps[i].Background += closedWorld
			}
			ps[i].Background += bias
		}
	}
	return ps, nil
}

// Measure implements protocol.Headless: bias B and diversity D of the
// opinions after each step, and of the final, rounded and initial ones.
func (definition) Measure(protocol.Settings) (sim.Measure, error) {
	return func(_ roundtable.Task, s *roundtable.State) sim.Measures { return measure(s) }, nil
}

func measure(s *roundtable.State) sim.Measures {
	start, rows := protocol.Opinions(s)
	final := start
	if len(rows) > 0 {
		final = rows[len(rows)-1]
	}
	b, d := make([]float64, len(rows)), make([]float64, len(rows))
	for i, row := range rows {
		b[i], d[i] = opinion.Bias(protocol.Known(row)), opinion.Diversity(protocol.Known(row))
	}
	var rounded []float64
	changed := 0.0
	for i, x := range final {
		if !math.IsNaN(x) {
			rounded = append(rounded, opinion.Round(x))
		}
		if x != start[i] && !(math.IsNaN(x) && math.IsNaN(start[i])) {
			changed++
		}
	}
	return sim.Measures{Series: map[string][]float64{"B": b, "D": d}, Scalars: map[string]float64{
		"B_final": opinion.Bias(protocol.Known(final)), "D_final": opinion.Diversity(protocol.Known(final)),
		"B_rounded": opinion.Bias(rounded), "D_rounded": opinion.Diversity(rounded),
		"B_initial": opinion.Bias(protocol.Known(start)), "D_initial": opinion.Diversity(protocol.Known(start)), "changed_agents": changed,
	}}
}

// Units implements protocol.Headless.
func (definition) Units() map[string]string {
	return map[string]string{
		"B": "mean opinion after each step, on -2..2", "D": "sample standard deviation (n − 1) of opinions after each step, on -2..2",
		"B_final": "opinion on -2..2", "D_final": "opinion on -2..2 (sample standard deviation, n − 1)",
		"B_rounded": "opinion level on -2..2, opinions rounded to levels first", "D_rounded": "opinion level on -2..2, opinions rounded to levels first",
		"B_initial": "opinion on -2..2", "D_initial": "opinion on -2..2", "changed_agents": "agents",
	}
}

// Tag implements protocol.Headless: the stances and every condition off
// its default.
func (definition) Tag(s protocol.Settings) string {
	t := protocol.StancesTag(s).Add("ctl", s.Control, "", ControlNone).Add("mem", s.Memory, "", MemoryCumulative).
		Add("cb", s.ConfirmationBias, "", opinion.BiasNone).Add("fr", s.Framing, "").Add("claim", s.Claim, "").Add("rep", s.BeliefReport, "", ReportVerbal)
	if s.ClosedWorld {
		t = append(t, "closed")
	}
	return t.String()
}

// Question implements protocol.Asker: a built-in claim in its framing.
func (definition) Question(s protocol.Settings) string { return Question(s) }

// twoWay: both of the pair write and report when asked, and for
// Deffuant agents, whose symmetric update needs both to speak.
func twoWay(s protocol.Settings) bool { return s.TwoWay || s.Agent == string(Deffuant) }
