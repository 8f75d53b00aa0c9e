package openaitest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Responder plays a sensible, deterministic deliberation for any request of
// the roundtable agent, so that end-to-end tests need little code:
//
//   - "message": a short message to everyone, signed with the persona;
//   - "proposal": the text "<persona>'s proposal" (Proposal overrides);
//   - "proposal_<task>": Proposal's value, or else a minimal instance of
//     the task's schema (see Instance);
//   - "vote_<rule>": the first candidate: chosen, scored 5 (others 1),
//     ranked first (others in order), given all points, or approved alone;
//   - "memory": a one-line note;
//   - any other schema: a minimal instance of it; no schema: "OK".
type Responder struct {
	// Proposal, if set, returns the proposal value of a participant: a
	// string for text tasks, the task's data otherwise. nil falls back to
	// the default.
	Proposal func(persona string, r *Request) any
}

// Handle implements Handler.
func (rs Responder) Handle(_ context.Context, r *Request) Reply {
	who := r.Persona()
	switch name := r.SchemaName; {
	case name == "" && r.Format == "json_schema":
		return Content("{}")
	case name == "message":
		return JSON(map[string]any{"to": []string{}, "text": fmt.Sprintf("%s here: let us settle on the first proposal.", who)})
	case name == "proposal" || strings.HasPrefix(name, "proposal_"):
		return JSON(orderedObject{{"reasoning", "I will propose what I believe is fair."}, {"skip", false}, {"proposal", rs.proposal(who, r)}})
	case strings.HasPrefix(name, "vote_"):
		return JSON(ballot(r))
	case name == "memory":
		return JSON(map[string]string{"memory": fmt.Sprintf("%s's notes: the group favours the first candidate.", who)})
	case len(r.Schema) > 0:
		return JSON(Instance(r.Schema))
	}
	return Content("OK")
}

func (rs Responder) proposal(who string, r *Request) any {
	if rs.Proposal != nil {
		if v := rs.Proposal(who, r); v != nil {
			return v
		}
	}
	if r.SchemaName == "proposal" {
		return who + "'s proposal"
	}
	var root node
	if err := json.Unmarshal(r.Schema, &root); err == nil {
		if p, ok := root.prop("proposal"); ok {
			return p.instance()
		}
	}
	return nil
}

// ballot votes for the first candidate in the format the schema asks.
func ballot(r *Request) orderedObject {
	field, name := ballotField(r.Schema)
	ids := field.candidates()
	out := orderedObject{{"reasoning", "The first candidate is the best."}, {"abstain", len(ids) == 0}}
	if len(ids) == 0 {
		return out
	}
	var v any
	switch name {
	case "choice":
		v = ids[0]
	case "scores", "points":
		m := orderedObject{}
		for i, id := range ids {
			switch {
			case name == "scores" && i == 0:
				m = append(m, kv{id, 5})
			case name == "scores":
				m = append(m, kv{id, 1})
			case i == 0:
				m = append(m, kv{id, len(ids)})
			default:
				m = append(m, kv{id, 0})
			}
		}
		v = m
	case "ranking":
		v = ids
	case "approve":
		v = ids[:1]
	}
	return append(out, kv{name, v})
}
