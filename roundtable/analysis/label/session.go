package label

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

// session runs one generator/discriminator negotiation and records its
// turns and outcome in v.
func (n *Negotiator) session(ctx context.Context, q Question, v *Verdict, gen, disc Endpoint) (Outcome, error) {
	id := len(v.Outcomes) + 1
	out := Outcome{Session: id, Generator: gen.Name, Discriminator: disc.Name}
	maxTurns := n.MaxTurns
	if maxTurns <= 0 {
		maxTurns = DefaultMaxTurns
	}
	var critique *Turn
	for turn := 1; turn <= maxTurns; turn++ {
		g, err := n.generate(ctx, q, gen, critique)
		if err != nil {
			return out, err
		}
		g.Session, g.Turn = id, turn
		v.Turns = append(v.Turns, g)
		d, err := n.judge(ctx, q, disc, g)
		if err != nil {
			return out, err
		}
		d.Session, d.Turn = id, turn
		v.Turns = append(v.Turns, d)
		out.Labels = g.Labels
		if *d.Agree {
			out.Agreed = true
			break
		}
		critique = &d
	}
	v.Outcomes = append(v.Outcomes, out)
	return out, nil
}

// generate asks the generator for an answer, with the discriminator's
// last critique if there is one.
func (n *Negotiator) generate(ctx context.Context, q Question, e Endpoint, critique *Turn) (Turn, error) {
	req := request(e.LLM, q, q.Labels, n.Temperature)
	if critique != nil {
		req.Messages = append(req.Messages, agent.ChatMessage{Role: agent.RoleUser, Content: fmt.Sprintf(
			"A second annotator disagreed with your last answer. Their labels: %s. Their reasons: %s\n"+
				"Reconsider and answer again in the same JSON format; keep your labels if you still think them right.",
			strings.Join(critique.Labels, ", "), critique.Reasoning)})
	}
	resp, err := e.LLM.Complete(ctx, req)
	if err != nil {
		return Turn{}, fmt.Errorf("generator %s: %w", e.Name, err)
	}
	reasoning, labels, err := parseLabels(q, q.Labels, resp.Content)
	if err != nil {
		return Turn{}, fmt.Errorf("generator %s: %w", e.Name, err)
	}
	return Turn{Role: "generator", Endpoint: e.Name, Labels: labels, Reasoning: reasoning}, nil
}

// judgement is what a discriminator returns.
type judgement struct {
	Agree       *bool           `json:"agree"`
	Explanation string          `json:"explanation"`
	Label       json.RawMessage `json:"label"`
	Labels      json.RawMessage `json:"labels"`
}

func (n *Negotiator) judge(ctx context.Context, q Question, e Endpoint, g Turn) (Turn, error) {
	resp, err := e.LLM.Complete(ctx, judgeRequest(e.LLM, q, g, n.Temperature))
	if err != nil {
		return Turn{}, fmt.Errorf("discriminator %s: %w", e.Name, err)
	}
	var j judgement
	if err := decodeJSON(resp.Content, &j); err != nil {
		return Turn{}, fmt.Errorf("discriminator %s: %w", e.Name, err)
	}
	if j.Agree == nil {
		return Turn{}, fmt.Errorf("discriminator %s: the answer has no \"agree\"", e.Name)
	}
	own, _ := json.Marshal(map[string]json.RawMessage{"label": j.Label, "labels": j.Labels})
	_, labels, err := parseLabels(q, q.Labels, string(own))
	if err != nil {
		if !*j.Agree {
			return Turn{}, fmt.Errorf("discriminator %s: %w", e.Name, err)
		}
		labels = g.Labels // an agreeing judge may omit its own labels
	}
	return Turn{Role: "discriminator", Endpoint: e.Name, Labels: labels, Agree: j.Agree, Reasoning: j.Explanation}, nil
}

func judgeRequest(llm agent.LLM, q Question, g Turn, temp *float64) agent.Request {
	field := `"label":{"type":"string","enum":%s}`
	if q.Multi {
		field = `"labels":{"type":"array","items":{"type":"string","enum":%s}}`
	}
	enum, _ := json.Marshal(q.Labels)
	s := agent.Schema{Name: q.Name + "_judgement", JSON: json.RawMessage(fmt.Sprintf(
		`{"type":"object","properties":{"agree":{"type":"boolean"},"explanation":{"type":"string"},`+field+
			`},"required":["agree","explanation"],"additionalProperties":false}`, enum))}
	user := fmt.Sprintf("Text:\n%s\n\nAnother annotator answered %s, reasoning: %s\n\n"+
		"Do you agree? Say why, and give your own labels.\nReply with one JSON object that follows the JSON schema %q:\n%s\n",
		q.Text, strings.Join(g.Labels, ", "), g.Reasoning, s.Name, s.JSON)
	return agent.Request{Messages: []agent.ChatMessage{
		{Role: agent.RoleSystem, Content: systemPrompt(q, q.Labels)},
		{Role: agent.RoleUser, Content: user},
	}, Schema: &s, Output: outputMode(llm), Temperature: temp}
}
