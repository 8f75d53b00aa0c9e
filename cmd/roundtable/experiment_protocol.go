package main

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/questionnaire"
)

// protocolExperiment runs a panel, chatroom or dyads table with offline
// agents or language models.
func (a *App) protocolExperiment(cfg Config, f simFlags, pr *roundtable.Protocol) (*experiment, error) {
	if f.rule == "all" {
		return nil, usagef("--rule all: the %s protocol has no vote, so there are no rules to compare", pr.Name)
	}
	bias, err := personaBias(f.proto.ConfirmationBias)
	if err != nil {
		return nil, err
	}
	if err := checkDyadAgents(f, pr, bias); err != nil {
		return nil, err
	}
	if question(f) == "" {
		return nil, usagef("--question: the %s protocol needs a statement, claim or brief, e.g. --question \"The earth is round.\"", pr.Name)
	}
	task := roundtable.TextTask{Topic: question(f)}
	e := &experiment{
		name:     pr.Name + "-" + f.agent + f.proto.conditionTag(),
		protocol: pr,
		task:     func(int, int64) (roundtable.Task, error) { return task, nil },
		seats:    protocolSeats(f, bias),
		units:    unitsFor(pr.Name),
	}
	e.measure, e.print = protocolMeasure(pr.Name), printProtocol
	if f.agent == "llm" {
		m, err := a.simMinds(cfg, f)
		if err != nil {
			return nil, err
		}
		a.minds = m
		e.agents = eachSeat(func(task roundtable.Task, _ roundtable.Participant) (roundtable.Agent, error) {
			return m.llmAgent("", task, AgentConfig{Memory: llmMemory(f.proto.Memory), ContextChars: f.proto.ContextChars})
		})
		return e, nil
	}
	vader := sync.OnceValue(sentiment.NewVader)
	ag, ok := offlineAgent(f.agent, f.proto, vader)
	if !ok || !slices.Contains(offlineAgents[pr.Name], f.agent) {
		return nil, usagef("--agent: %q is not an agent of the %s protocol (want %s or llm)", f.agent, pr.Name, strings.Join(offlineAgents[pr.Name], ", "))
	}
	e.agents = eachSeat(func(roundtable.Task, roundtable.Participant) (roundtable.Agent, error) { return ag, nil })
	return e, nil
}

// question is what a protocol's table is about: --question, else --topic.
func question(f simFlags) string {
	if q := dyads.Question(f.proto.settings("--protocol")); q != "" {
		return q
	}
	return f.topic
}

// offlineAgents are the model-free agents that make sense in each protocol.
var offlineAgents = map[string][]string{
	dyads.Name:         {"degroot", "deffuant"},
	chatroom.Name:      {"persona"},
	questionnaire.Name: {"persona"},
	panel.Name:         {"evaluator"},
}

// protocolSeats seats k agents with stances assigned per run; a model's
// persona states its stance, and bias, the confirmation-bias instruction.
func protocolSeats(f simFlags, bias string) func(run int, seed int64, k int) ([]roundtable.Participant, error) {
	return func(_ int, seed int64, k int) ([]roundtable.Participant, error) {
		stances, err := assignStances(f.proto.Stances, k, seed)
		if err != nil {
			return nil, err
		}
		ps := make([]roundtable.Participant, k)
		for i := range ps {
			ps[i] = roundtable.Participant{ID: fmt.Sprintf("agent-%d", i+1), Name: fmt.Sprintf("Agent %d", i+1),
				Kind: roundtable.Bot, Agent: f.agent, Stance: formatStance(stances[i])}
			if f.proto.Control == dyads.ControlNoRolePlay {
				ps[i].Stance = "" // the control: no persona, no initial belief
				continue
			}
			if f.agent == "llm" && f.proto.Protocol != panel.Name {
				seatPersona(&ps[i], f, seed, i+1, stances[i], bias)
			}
		}
		return ps, nil
	}
}
