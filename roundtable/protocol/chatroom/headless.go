package chatroom

import (
	"fmt"
	"math"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// Headless is what the chatroom and its questionnaire share headless:
// personas that keep their stance, seats with Conversational bias's
// personas for language models, and the same figures.
type Headless struct{ Protocol string }

// AgentKinds implements protocol.Agents: the persona that keeps its stance.
func (Headless) AgentKinds() []string { return []string{"persona"} }

// Agent implements protocol.Agents.
func (h Headless) Agent(kind string, s protocol.Settings) (roundtable.Agent, error) {
	if kind != "persona" {
		return nil, fmt.Errorf("%q is not an agent of the %s protocol", kind, h.Protocol)
	}
	if err := protocol.NoBias(s, kind, h.Protocol); err != nil {
		return nil, err
	}
	return Persona{}, nil
}

// Seats implements protocol.Headless: stances drawn by s.Stances; a
// language model plays the paper's persona of its stance, told of its
// confirmation bias as asked.
func (Headless) Seats(s protocol.Settings, seed int64, k int) ([]roundtable.Participant, error) {
	bias, err := opinion.BiasInstruction(s.ConfirmationBias)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", s.Field("confirmation_bias"), err)
	}
	ps, stances, err := protocol.StanceSeats(s, seed, k)
	if err != nil || s.Agent != "llm" {
		return ps, err
	}
	for i := range ps {
		ps[i].Background = opinion.ChatPersona{Name: ps[i].Name, Statement: s.Question, Complement: s.Complement, Level: stances[i]}.Text() + bias
	}
	return ps, nil
}

// Measure implements protocol.Headless.
func (Headless) Measure(protocol.Settings) (sim.Measure, error) {
	return func(_ roundtable.Task, s *roundtable.State) sim.Measures { return Measure(s) }, nil
}

// Measure is the chatroom's figures from the self-reports: the agents
// whose final reported stance differs from the assigned one, whether any
// did, and the messages written.
func Measure(s *roundtable.State) sim.Measures {
	start, rows := protocol.Opinions(s)
	changed := 0.0
	if len(rows) > 0 {
		for i, x := range rows[len(rows)-1] {
			if !math.IsNaN(x) && !math.IsNaN(start[i]) && opinion.Round(x) != opinion.Round(start[i]) {
				changed++
			}
		}
	}
	pub, priv := 0.0, 0.0
	for _, r := range s.Rounds {
		for _, m := range r.Messages {
			if m.Private {
				priv++
			} else {
				pub++
			}
		}
	}
	return sim.Measures{Scalars: map[string]float64{"changed_agents": changed, "chat_changed": math.Min(changed, 1),
		"messages": pub, "private_messages": priv}}
}

// Units implements protocol.Headless.
func (Headless) Units() map[string]string {
	return map[string]string{
		"changed_agents": "agents whose final self-reported stance differs from the assigned one",
		"chat_changed":   "1 if any agent changed, else 0 (its mean over runs is the share of chats)",
		"messages":       "public messages", "private_messages": "private messages",
	}
}

// Tag implements protocol.Headless: the stances and a model agent's
// persona updates, unless the defaults.
func (Headless) Tag(s protocol.Settings) string {
	t := protocol.StancesTag(s)
	if s.Agent == "llm" {
		t = t.Add("pu", s.PersonaUpdate, "", PersonaSignal)
	}
	return t.String()
}
