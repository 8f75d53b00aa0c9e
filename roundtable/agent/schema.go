package agent

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// obj is a JSON object that keeps its keys in order. Models generate fields
// in schema order, so "reasoning" must come before the decision.
type obj []field

type field struct {
	key string
	val any
}

// MarshalJSON writes the fields in order.
func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.val)
		if err != nil {
			return nil, fmt.Errorf("schema field %s: %w", f.key, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// object is a strict-mode schema of an object whose fields are all required.
func object(fields ...field) obj {
	props := make(obj, len(fields))
	req := make([]string, len(fields))
	for i, f := range fields {
		props[i] = f
		req[i] = f.key
	}
	return obj{{"type", "object"}, {"properties", props}, {"required", req}, {"additionalProperties", false}}
}

func str(desc string) obj { return obj{{"type", "string"}, {"description", desc}} }

func boolean(desc string) obj { return obj{{"type", "boolean"}, {"description", desc}} }

func enum(values []string) obj { return obj{{"type", "string"}, {"enum", values}} }

func schemaOf(name string, o obj) *Schema {
	b, err := json.Marshal(o)
	if err != nil {
		panic(fmt.Sprintf("agent: schema %s does not encode: %v", name, err)) // only fixed shapes reach here
	}
	return &Schema{Name: name, JSON: b}
}

// messageSchema is the message phase's answer: recipients by name, and text.
func messageSchema(others []string) *Schema {
	var item any = obj{{"type", "string"}}
	if len(others) > 0 {
		item = enum(others)
	}
	to := obj{{"type", "array"}, {"items", item},
		{"description", "names of the participants the message is for; empty for everyone"}}
	return schemaOf("message", object(field{"to", to}, field{"text", str("your message")}))
}

// proposalSchema is the proposal phase's answer. A structured task supplies
// the schema of the proposal's data; a text task's proposal is a string.
func proposalSchema(name string, data json.RawMessage) *Schema {
	var proposal any = str("your proposal (ignored when skip is true)")
	if data != nil {
		proposal = data
	}
	return schemaOf(name, object(
		field{"reasoning", str("your private step-by-step reasoning; nobody else sees it")},
		field{"skip", boolean("true to keep your latest proposal instead of making a new one")},
		field{"proposal", proposal},
	))
}

// ballotSchema is the vote phase's answer in the format of rule, with the
// candidate IDs as enums.
func ballotSchema(rule vote.Rule, ids []string) *Schema {
	return schemaOf("vote_"+string(rule), object(
		field{"reasoning", str("a short explanation of your vote")},
		field{"abstain", boolean("true to abstain; the other fields are then ignored")},
		field{string(rule.Format()), ballotField(rule, ids)},
	))
}

func ballotField(rule vote.Rule, ids []string) any {
	switch rule.Format() {
	case vote.FormatChoice:
		return enum(ids)
	case vote.FormatScores:
		return perCandidate(ids, obj{{"type", "integer"}, {"minimum", vote.MinScore}, {"maximum", vote.MaxScore}})
	case vote.FormatPoints:
		return perCandidate(ids, obj{{"type", "integer"}, {"minimum", 0}})
	default: // ranking, approve
		return obj{{"type", "array"}, {"items", enum(ids)}}
	}
}

// perCandidate is an object with one required integer field per candidate.
func perCandidate(ids []string, item obj) obj {
	fields := make([]field, len(ids))
	for i, id := range ids {
		fields[i] = field{id, item}
	}
	return object(fields...)
}

// memorySchema is a reflective memory update.
func memorySchema() *Schema {
	return schemaOf("memory", object(field{"memory", str("your rewritten notes")}))
}
