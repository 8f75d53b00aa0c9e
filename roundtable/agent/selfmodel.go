package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// modelSchema asks for a mental model of self (Sentimental Agents, 5.2).
var modelSchema = schemaOf("mental_model", object(
	field{"description", str("who you are in this role: your professional experience and expertise, in 30 words or fewer, plainly")},
	field{"priorities", str("your main objectives and priorities in this role, in 20 words or fewer, without jargon")},
	field{"criteria", obj{{"type", "array"}, {"items", str("one evaluation criterion")}, {"minItems", 3}, {"maxItems", 7},
		{"description", "the criteria you use to judge the items, specific to your role and unlike what other roles would use"}}},
))

type modelAnswer struct {
	Description string   `json:"description"`
	Priorities  string   `json:"priorities"`
	Criteria    []string `json:"criteria"`
}

// selfModelMessage is the message of an agent whose protocol asks for a
// mental model of self (a panel judge, Briefing.SelfModel): it first states its mental
// model of self (round 1) or restates it after the discussion so far (a
// "mental_model" request), then writes its message with the model in the
// prompt; the message carries the model (Say.Self). A failed model request
// leaves the message without one rather than failing it.
func (a *Agent) selfModelMessage(ctx context.Context, v roundtable.View) roundtable.Action {
	var u roundtable.Usage
	got := a.decide(ctx, v, &u, modelSchema, modelInstruction(v), parseModel)
	model := (*roundtable.SelfModel)(nil)
	if s, ok := got.(roundtable.Say); ok {
		model = s.Self
	} else {
		a.log.Warn("no mental model of self this round", "table", v.Table, "participant", v.Self.ID, "round", v.Round, "error", failReason(got))
		model = latestModel(v)
	}
	act := a.decide(ctx, v, &u, messageSchema(otherNames(v)), messageInstruction(v)+modelReminder(model),
		func(c string) (roundtable.Action, error) { return parseMessage(v, c) })
	if s, ok := act.(roundtable.Say); ok && model != nil {
		s.Self = model
		return s
	}
	return act
}

func failReason(act roundtable.Action) string {
	if f, ok := act.(roundtable.Fail); ok {
		return f.Kind + ": " + f.Reason
	}
	return fmt.Sprintf("unexpected %T", act)
}

// parseModel returns the model in a Say, the action that will carry it.
func parseModel(content string) (roundtable.Action, error) {
	var m modelAnswer
	if err := decode(content, &m); err != nil {
		return nil, err
	}
	sm := roundtable.SelfModel{Description: strings.TrimSpace(m.Description), Priorities: strings.TrimSpace(m.Priorities), Source: "llm"}
	for _, c := range m.Criteria {
		if c = strings.TrimSpace(c); c != "" {
			sm.Criteria = append(sm.Criteria, c)
		}
	}
	if err := sm.Check(); err != nil {
		return nil, errors.New(roundtable.ErrorMessage(err))
	}
	return roundtable.Say{Text: "mental model", Self: &sm}, nil
}

// modelInstruction asks for the model, or its restatement after the
// discussion so far.
func modelInstruction(v roundtable.View) string {
	var b strings.Builder
	b.WriteString(phaseHeader(v, "your mental model of self"))
	fmt.Fprintf(&b, "Your role on this panel: %s.\n", v.Self.Name)
	if prev := latestModel(v); prev != nil {
		fmt.Fprintf(&b, "Your mental model of self so far:\n%s", prev.Text())
		b.WriteString("Restate it now, after the discussion so far: keep what still holds and change what the discussion has changed.\n")
	} else {
		b.WriteString("Before the discussion, state your mental model of self for this role: a short description, your priorities, and the criteria you will judge the items by. Avoid superlatives and generic statements anyone could make.\n")
	}
	return b.String()
}

// modelReminder shows the model in a prompt ("" for none).
func modelReminder(m *roundtable.SelfModel) string {
	if m == nil {
		return ""
	}
	return "Your mental model of self (judge by it):\n" + m.Text()
}

// latestModel is the model Self stated last, or nil.
func latestModel(v roundtable.View) *roundtable.SelfModel {
	rounds := v.SoFar()
	for r := len(rounds) - 1; r >= 0; r-- {
		ms := rounds[r].Messages
		for i := len(ms) - 1; i >= 0; i-- {
			if ms[i].From == v.Self.ID && ms[i].Self != nil {
				return ms[i].Self
			}
		}
	}
	return nil
}
