package label

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

// answer is what a labelling model returns.
type answer struct {
	Reasoning string          `json:"reasoning"`
	Label     json.RawMessage `json:"label"`
	Labels    json.RawMessage `json:"labels"`
}

func labelSchema(q Question, labels []string) agent.Schema {
	enum, _ := json.Marshal(labels)
	var answerProp string
	if q.Multi {
		answerProp = fmt.Sprintf(`"labels":{"type":"array","items":{"type":"string","enum":%s},"minItems":1}`, enum)
	} else {
		answerProp = fmt.Sprintf(`"label":{"type":"string","enum":%s}`, enum)
	}
	field := "label"
	if q.Multi {
		field = "labels"
	}
	js := fmt.Sprintf(`{"type":"object","properties":{"reasoning":{"type":"string"},%s},"required":["reasoning","%s"],"additionalProperties":false}`,
		answerProp, field)
	return agent.Schema{Name: q.Name, JSON: json.RawMessage(js)}
}

// systemPrompt states the task, the labels and the demonstrations.
func systemPrompt(q Question, labels []string) string {
	var b strings.Builder
	b.WriteString("You label text for a research study of group deliberation. Judge only the text given; do not take sides.\n\n")
	b.WriteString(q.Instruction)
	if q.Multi {
		fmt.Fprintf(&b, "\n\nChoose every label that applies, from: %s.", strings.Join(labels, ", "))
	} else {
		fmt.Fprintf(&b, "\n\nChoose exactly one label from: %s.", strings.Join(labels, ", "))
	}
	for i, d := range q.Demos {
		fmt.Fprintf(&b, "\n\nExample %d:\nText: %s", i+1, d.Text)
		if d.Reasoning != "" {
			fmt.Fprintf(&b, "\nReasoning: %s", d.Reasoning)
		}
		fmt.Fprintf(&b, "\nLabels: %s", strings.Join(d.Labels, ", "))
		if d.Explanation != "" {
			fmt.Fprintf(&b, "\nA second annotator agrees: %s", d.Explanation)
		}
	}
	return b.String()
}

// userPrompt gives the text and spells out the schema, so that endpoints
// that do not enforce schemas still see it.
func userPrompt(q Question, s agent.Schema) string {
	return fmt.Sprintf("Text:\n%s\n\nReply with one JSON object that follows the JSON schema %q:\n%s\n", q.Text, s.Name, s.JSON)
}

// request builds the request for one labelling answer.
func request(llm agent.LLM, q Question, labels []string, temp *float64) agent.Request {
	s := labelSchema(q, labels)
	return agent.Request{
		Messages: []agent.ChatMessage{
			{Role: agent.RoleSystem, Content: systemPrompt(q, labels)},
			{Role: agent.RoleUser, Content: userPrompt(q, s)},
		},
		Schema: &s, Output: outputMode(llm), Temperature: temp,
	}
}

func outputMode(llm agent.LLM) agent.OutputMode {
	if m, ok := llm.(agent.OutputModer); ok && m.OutputMode().Valid() {
		return m.OutputMode()
	}
	return agent.OutputJSONSchema
}

// parseLabels reads the labels of an answer and checks them against the
// allowed ones.
func parseLabels(q Question, labels []string, content string) (reasoning string, out []string, err error) {
	var a answer
	if err := decodeJSON(content, &a); err != nil {
		return "", nil, err
	}
	raw := a.Label
	if q.Multi || len(raw) == 0 {
		raw = a.Labels
	}
	var names []string
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		names = []string{one}
	} else if err := json.Unmarshal(raw, &names); err != nil {
		return "", nil, fmt.Errorf("the answer has no label")
	}
	for _, n := range names {
		l, ok := canonical(labels, n)
		if !ok {
			return "", nil, fmt.Errorf("%q is not one of %s", n, strings.Join(labels, ", "))
		}
		out = append(out, l)
	}
	switch {
	case len(out) == 0:
		return "", nil, fmt.Errorf("the answer names no label")
	case !q.Multi && len(out) != 1:
		return "", nil, fmt.Errorf("the answer names %d labels, want one", len(out))
	}
	return a.Reasoning, ordered(labels, out), nil
}

// decodeJSON parses the JSON object in a model's answer, tolerating code
// fences and text around it.
func decodeJSON(content string, v any) error {
	s := strings.TrimSpace(content)
	start, end := strings.Index(s, "{"), strings.LastIndex(s, "}")
	if start < 0 || end < start {
		return fmt.Errorf("the answer contains no JSON object: %q", clip(content))
	}
	if err := json.Unmarshal([]byte(s[start:end+1]), v); err != nil {
		return fmt.Errorf("the answer is not valid JSON: %w", err)
	}
	return nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
