package label

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
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
	genQ, judgeQ := q, q
	var err error
	if genQ.Demos, err = n.Demos.withReasoning(ctx, q, gen, n.Temperature); err != nil {
		return out, err
	}
	judgeQ.Demos = genQ.Demos
	if judgeQ.Demos, err = n.Demos.withExplanations(ctx, judgeQ, disc, n.Temperature); err != nil {
		return out, err
	}
	var critique *Turn
	for turn := 1; turn <= maxTurns; turn++ {
		g, err := n.generate(ctx, genQ, gen, critique)
		if err != nil {
			return out, err
		}
		g.Session, g.Turn = id, turn
		v.Turns = append(v.Turns, g)
		d, err := n.judge(ctx, judgeQ, disc, g)
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
	var reasoning string
	var labels []string
	err := ask(ctx, e.LLM, req, func(content string) (err error) {
		reasoning, labels, err = parseLabels(q, q.Labels, content)
		return err
	})
	if err != nil {
		return Turn{}, fmt.Errorf("generator %s: %w", e.Name, err)
	}
	return Turn{Role: "generator", Endpoint: e.Name, Labels: labels, Reasoning: reasoning}, nil
}

// ask completes req and parses the answer; an answer that does not parse
// is re-asked once, with the error, before it fails.
func ask(ctx context.Context, llm agent.LLM, req agent.Request, parse func(string) error) error {
	resp, err := llm.Complete(ctx, req)
	if err != nil {
		return err
	}
	perr := parse(resp.Content)
	if perr == nil {
		return nil
	}
	req.Messages = append(slices.Clip(req.Messages),
		agent.ChatMessage{Role: agent.RoleAssistant, Content: resp.Content},
		agent.ChatMessage{Role: agent.RoleUser, Content: "That answer cannot be used: " + perr.Error() + ". Reply again with one JSON object in the required format."})
	resp, err = llm.Complete(ctx, req)
	if err != nil {
		return err
	}
	if err := parse(resp.Content); err != nil {
		return fmt.Errorf("%w (and before the re-ask: %v)", err, perr)
	}
	return nil
}

// judgement is what a discriminator returns.
type judgement struct {
	Agree       *bool           `json:"agree"`
	Explanation string          `json:"explanation"`
	Label       json.RawMessage `json:"label"`
	Labels      json.RawMessage `json:"labels"`
}

func (n *Negotiator) judge(ctx context.Context, q Question, e Endpoint, g Turn) (Turn, error) {
	var j judgement
	var labels []string
	err := ask(ctx, e.LLM, judgeRequest(e.LLM, q, g, n.Temperature), func(content string) (err error) {
		j, labels, err = parseJudgement(q, g, content)
		return err
	})
	if err != nil {
		return Turn{}, fmt.Errorf("discriminator %s: %w", e.Name, err)
	}
	return Turn{Role: "discriminator", Endpoint: e.Name, Labels: labels, Agree: j.Agree, Reasoning: j.Explanation}, nil
}

// parseJudgement reads a discriminator's answer: agree is required, and
// its own labels unless it agrees (then they are the generator's).
func parseJudgement(q Question, g Turn, content string) (judgement, []string, error) {
	var j judgement
	if err := decodeJSON(content, &j); err != nil {
		return j, nil, err
	}
	if j.Agree == nil {
		return j, nil, fmt.Errorf("the answer has no \"agree\"")
	}
	own, _ := json.Marshal(map[string]json.RawMessage{"label": j.Label, "labels": j.Labels})
	_, labels, err := parseLabels(q, q.Labels, string(own))
	if err != nil {
		if !*j.Agree {
			return j, nil, err
		}
		labels = g.Labels
	}
	return j, labels, nil
}

func judgeRequest(llm agent.LLM, q Question, g Turn, temp *float64) agent.Request {
	// Every property is required, the judge's own labels too: OpenAI's
	// strict structured output refuses a schema with an optional one.
	field, name := `"label":{"type":"string","enum":%s}`, "label"
	if q.Multi {
		field, name = `"labels":{"type":"array","items":{"type":"string","enum":%s},"minItems":1}`, "labels"
	}
	enum, _ := json.Marshal(q.Labels)
	s := agent.Schema{Name: q.Name + "_judgement", JSON: json.RawMessage(fmt.Sprintf(
		`{"type":"object","properties":{"agree":{"type":"boolean"},"explanation":{"type":"string"},`+field+
			`},"required":["agree","explanation","%s"],"additionalProperties":false}`, enum, name))}
	user := fmt.Sprintf("Text:\n%s\n\nAnother annotator answered %s, reasoning: %s\n\n"+
		"Do you agree? Say why, and give your own labels.\nReply with one JSON object that follows the JSON schema %q:\n%s\n",
		q.Text, strings.Join(g.Labels, ", "), g.Reasoning, s.Name, s.JSON)
	return agent.Request{Messages: []agent.ChatMessage{
		{Role: agent.RoleSystem, Content: systemPrompt(q, q.Labels)},
		{Role: agent.RoleUser, Content: user},
	}, Schema: &s, Output: outputMode(llm), Temperature: temp}
}
