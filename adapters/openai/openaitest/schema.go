package openaitest

import (
	"bytes"
	"encoding/json"
)

// node is the part of a JSON schema the fake reads, with property order kept.
type node struct {
	Type       any             `json:"type"`
	Enum       []any           `json:"enum"`
	Items      *node           `json:"items"`
	Properties json.RawMessage `json:"properties"`
	Minimum    *float64        `json:"minimum"`
	MinItems   int             `json:"minItems"`
	AnyOf      []node          `json:"anyOf"`
}

// property is one named property, in schema order.
type property struct {
	name string
	node node
}

// props decodes the properties in their order.
func (n node) props() []property {
	if len(n.Properties) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(n.Properties))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []property
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out
		}
		var p node
		if err := dec.Decode(&p); err != nil {
			return out
		}
		name, _ := t.(string)
		out = append(out, property{name, p})
	}
	return out
}

func (n node) prop(name string) (node, bool) {
	for _, p := range n.props() {
		if p.name == name {
			return p.node, true
		}
	}
	return node{}, false
}

func (n node) is(typ string) bool {
	switch t := n.Type.(type) {
	case string:
		return t == typ
	case []any:
		for _, x := range t {
			if x == typ {
				return true
			}
		}
	}
	return false
}

// candidates reads candidate IDs from a ballot field: an enum, an array
// of an enum, or an object with one property per candidate.
func (n node) candidates() []string {
	src := n.Enum
	if n.Items != nil {
		src = n.Items.Enum
	}
	var ids []string
	for _, v := range src {
		if s, ok := v.(string); ok {
			ids = append(ids, s)
		}
	}
	if ids == nil {
		for _, p := range n.props() {
			ids = append(ids, p.name)
		}
	}
	return ids
}

// ballotField finds the ballot field of a vote schema and its name.
func ballotField(schema json.RawMessage) (node, string) {
	var root node
	if json.Unmarshal(schema, &root) != nil {
		return node{}, ""
	}
	for _, name := range []string{"choice", "scores", "ranking", "points", "approve"} {
		if f, ok := root.prop(name); ok {
			return f, name
		}
	}
	return node{}, ""
}

// Instance returns a minimal value that satisfies a JSON schema: objects
// with every property, the first enum value, the minimum of numbers, empty
// strings as "x", arrays with their minimum number of items.
func Instance(schema json.RawMessage) any {
	var n node
	if json.Unmarshal(schema, &n) != nil {
		return nil
	}
	return n.instance()
}

func (n node) instance() any {
	switch {
	case len(n.Enum) > 0:
		return n.Enum[0]
	case len(n.AnyOf) > 0:
		return n.AnyOf[0].instance()
	case n.is("object") || len(n.Properties) > 0:
		out := orderedObject{}
		for _, p := range n.props() {
			out = append(out, kv{p.name, p.node.instance()})
		}
		return out
	case n.is("array"):
		items := make([]any, n.MinItems)
		for i := range items {
			if n.Items != nil {
				items[i] = n.Items.instance()
			}
		}
		return items
	case n.is("integer") || n.is("number"):
		if n.Minimum != nil {
			return *n.Minimum
		}
		return 0
	case n.is("boolean"):
		return false
	case n.is("null"):
		return nil
	}
	return "x"
}

type kv struct {
	k string
	v any
}

type orderedObject []kv

// MarshalJSON keeps the schema's property order.
func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.k)
		v, err := json.Marshal(p.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
