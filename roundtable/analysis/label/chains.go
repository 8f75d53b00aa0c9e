package label

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

// chains turns demonstrations into the LLM negotiation paper's triplets:
// (input, reasoning chain, decision) for a generator, made by asking the
// generator itself why the example's labels are right; and, for a
// discriminator, its explanation of why that decision is correct. Each
// model is asked once per example; the answers are kept for the life of
// the Demonstrations.
type chains struct {
	mu   sync.Mutex
	made map[string]string // role, endpoint, example -> the model's words
}

// chainSchema is a model's reasoning about a labelled example.
var chainSchema = agent.Schema{Name: "demonstration_reasoning", JSON: json.RawMessage(
	`{"type":"object","properties":{"reasoning":{"type":"string"}},"required":["reasoning"],"additionalProperties":false}`)}

// withReasoning returns q's demonstrations with e's reasoning chain for
// each (an example that brings its own keeps it), when d asks for chains.
func (d *Demonstrations) withReasoning(ctx context.Context, q Question, e Endpoint, temp *float64) ([]Demo, error) {
	if d == nil || d.Plain || len(q.Demos) == 0 {
		return q.Demos, nil
	}
	out := make([]Demo, len(q.Demos))
	for i, demo := range q.Demos {
		out[i] = demo
		if demo.Reasoning != "" {
			continue
		}
		r, err := d.chains.ask(ctx, "generator", e, temp, q, demo, fmt.Sprintf(
			"Text:\n%s\n\nIts correct labels: %s.\nExplain step by step why these labels are right for this text.",
			demo.Text, strings.Join(demo.Labels, ", ")))
		if err != nil {
			return nil, fmt.Errorf("reasoning chain of a demonstration by %s: %w", e.Name, err)
		}
		out[i].Reasoning = r
	}
	return out, nil
}

// withExplanations returns q's demonstrations, with their reasoning
// chains, each with discriminator e's explanation of why its labels are
// correct: the discriminator's six-part demonstration (input, reasoning,
// decision, its agreement, its explanation, its decision).
func (d *Demonstrations) withExplanations(ctx context.Context, q Question, e Endpoint, temp *float64) ([]Demo, error) {
	if d == nil || d.Plain || len(q.Demos) == 0 {
		return q.Demos, nil
	}
	out := make([]Demo, len(q.Demos))
	for i, demo := range q.Demos {
		out[i] = demo
		if demo.Explanation != "" {
			continue
		}
		r, err := d.chains.ask(ctx, "discriminator", e, temp, q, demo, fmt.Sprintf(
			"Text:\n%s\n\nAn annotator labelled it %s, reasoning: %s\nThe labels are correct. Explain why, as a second annotator who checks them.",
			demo.Text, strings.Join(demo.Labels, ", "), demo.Reasoning))
		if err != nil {
			return nil, fmt.Errorf("explanation of a demonstration by %s: %w", e.Name, err)
		}
		out[i].Explanation = r
	}
	return out, nil
}

// ask returns e's words about demo in its role, asking once.
func (c *chains) ask(ctx context.Context, role string, e Endpoint, temp *float64, q Question, demo Demo, prompt string) (string, error) {
	key := strings.Join([]string{role, e.Name, q.Name, demo.Text, strings.Join(demo.Labels, "\x1f")}, "\x00")
	c.mu.Lock()
	r, ok := c.made[key]
	c.mu.Unlock()
	if ok {
		return r, nil
	}
	req := agent.Request{Messages: []agent.ChatMessage{
		{Role: agent.RoleSystem, Content: "You label text for a research study of group deliberation.\n\n" + q.Instruction},
		{Role: agent.RoleUser, Content: fmt.Sprintf("%s\nReply with one JSON object that follows the JSON schema %q:\n%s\n", prompt, chainSchema.Name, chainSchema.JSON)},
	}, Schema: &chainSchema, Output: outputMode(e.LLM), Temperature: temp}
	err := ask(ctx, e.LLM, req, func(content string) error {
		var a struct {
			Reasoning string `json:"reasoning"`
		}
		if err := decodeJSON(content, &a); err != nil {
			return err
		}
		if r = strings.TrimSpace(a.Reasoning); r == "" {
			return fmt.Errorf("the reasoning is empty")
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	if c.made == nil {
		c.made = map[string]string{}
	}
	c.made[key] = r
	c.mu.Unlock()
	return r, nil
}
