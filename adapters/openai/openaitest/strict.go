package openaitest

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// OpenAI's Structured Outputs accept only a subset of JSON Schema when a
// response_format is strict (platform.openai.com/docs/guides/structured-outputs,
// "Supported schemas"); a schema outside it is refused with a 400
// invalid_request_error on param response_format, "Invalid schema for
// response_format 'NAME': In context=(...), ...". The fake refuses the
// same schemas, so a schema the code sends that OpenAI would refuse fails
// the tests that send it. The rules checked:
//
//   - the name is 1 to 64 of a-z, A-Z, 0-9, _ and -;
//   - the root is an object, not anyOf;
//   - every object lists every property in "required" and sets
//     "additionalProperties": false (an optional field is a union with
//     null, still required);
//   - only the supported keywords appear: type, properties, required,
//     additionalProperties, items, enum, const, anyOf, $ref, $defs,
//     definitions, description, title; pattern and format (of the listed
//     formats) for strings; multipleOf, maximum, exclusiveMaximum,
//     minimum, exclusiveMinimum for numbers; minItems, maxItems for
//     arrays (allOf, not, if/then/else, oneOf, minLength, maxLength,
//     patternProperties, minProperties, uniqueItems, default... are not);
//   - at most 10 levels of nesting, 5000 object properties, 1000 enum
//     values, 120,000 characters of property names, definition names,
//     enum and const values, and 15,000 characters in one string enum of
//     more than 250 values.

// The size limits of a strict schema.
const (
	strictMaxDepth      = 10
	strictMaxProperties = 5000
	strictMaxEnumValues = 1000
	strictMaxChars      = 120000
	strictMaxEnumChars  = 15000 // for one string enum of more than strictBigEnum values
	strictBigEnum       = 250
)

// strictKeywords are the keywords a strict schema may use, each with the
// type it applies to ("" for any).
var strictKeywords = map[string]string{
	"type": "", "properties": "object", "required": "object", "additionalProperties": "object",
	"items": "array", "minItems": "array", "maxItems": "array",
	"enum": "", "const": "", "anyOf": "", "$ref": "", "$defs": "", "definitions": "", "description": "", "title": "",
	"pattern": "string", "format": "string",
	"multipleOf": "number", "maximum": "number", "exclusiveMaximum": "number", "minimum": "number", "exclusiveMinimum": "number",
}

// strictFormats are the string formats a strict schema may ask for.
var strictFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

var schemaName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// CheckStrict reports why OpenAI would refuse schema, under name, as a
// strict response_format; nil if it would accept it. The error reads as
// OpenAI's does.
func CheckStrict(name string, schema json.RawMessage) error {
	fail := func(context, msg string) error {
		return fmt.Errorf("Invalid schema for response_format '%s': In context=(%s), %s", name, context, msg)
	}
	if !schemaName.MatchString(name) {
		return fmt.Errorf("Invalid 'response_format.json_schema.name': string %q does not match pattern '^[a-zA-Z0-9_-]+$' of at most 64 characters", name)
	}
	var root map[string]any
	if err := json.Unmarshal(schema, &root); err != nil {
		return fmt.Errorf("Invalid schema for response_format '%s': not a JSON object: %v", name, err)
	}
	if _, ok := root["anyOf"]; ok || !typeIs(root["type"], "object") {
		return fail("", "the root schema must be an object, not anyOf")
	}
	c := strictCheck{}
	if err := c.node(root, nil, 0); err != nil {
		return fail(err.path, err.msg)
	}
	switch {
	case c.props > strictMaxProperties:
		return fail("", fmt.Sprintf("the schema has %d object properties, at most %d are permitted", c.props, strictMaxProperties))
	case c.enums > strictMaxEnumValues:
		return fail("", fmt.Sprintf("the schema has %d enum values, at most %d are permitted", c.enums, strictMaxEnumValues))
	case c.chars > strictMaxChars:
		return fail("", fmt.Sprintf("the names and enum values of the schema total %d characters, at most %d are permitted", c.chars, strictMaxChars))
	}
	return nil
}

// strictCheck walks a schema, counting what the size limits bound.
type strictCheck struct {
	props, enums, chars int
}

// strictError is a rule broken at a path.
type strictError struct{ path, msg string }

func (c *strictCheck) node(n map[string]any, path []string, depth int) *strictError {
	at := func(msg string) *strictError { return &strictError{contextOf(path), msg} }
	if depth > strictMaxDepth {
		return at(fmt.Sprintf("the schema is nested more than %d levels deep", strictMaxDepth))
	}
	for _, k := range slices.Sorted(maps.Keys(n)) {
		applies, ok := strictKeywords[k]
		if !ok {
			return at(fmt.Sprintf("'%s' is not permitted", k))
		}
		if applies != "" && n["type"] != nil && !typeIs(n["type"], applies) && !(applies == "number" && typeIs(n["type"], "integer")) {
			return at(fmt.Sprintf("'%s' is not permitted for type %v", k, n["type"]))
		}
	}
	if err := c.values(n, at); err != nil {
		return err
	}
	if typeIs(n["type"], "object") || n["properties"] != nil {
		if err := c.object(n, path, depth, at); err != nil {
			return err
		}
	}
	if items, ok := n["items"]; ok {
		m, ok := items.(map[string]any)
		if !ok {
			return at("'items' must be a schema")
		}
		if err := c.node(m, append(path, "items"), depth+1); err != nil {
			return err
		}
	}
	for _, key := range []string{"$defs", "definitions"} {
		defs, _ := n[key].(map[string]any)
		for _, d := range slices.Sorted(maps.Keys(defs)) {
			c.chars += utf8.RuneCountInString(d)
			m, ok := defs[d].(map[string]any)
			if !ok {
				return at(fmt.Sprintf("definition '%s' must be a schema", d))
			}
			if err := c.node(m, append(path, key, d), depth+1); err != nil {
				return err
			}
		}
	}
	if anyOf, ok := n["anyOf"]; ok {
		alts, ok := anyOf.([]any)
		if !ok || len(alts) == 0 {
			return at("'anyOf' must be a list of schemas")
		}
		for i, a := range alts {
			m, ok := a.(map[string]any)
			if !ok {
				return at("'anyOf' must be a list of schemas")
			}
			if err := c.node(m, append(path, "anyOf", fmt.Sprint(i)), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// object checks an object's required properties and additionalProperties,
// then each property.
func (c *strictCheck) object(n map[string]any, path []string, depth int, at func(string) *strictError) *strictError {
	props, _ := n["properties"].(map[string]any)
	if ap, ok := n["additionalProperties"]; !ok || ap != false {
		return at("'additionalProperties' is required to be supplied and to be false")
	}
	required := map[string]bool{}
	list, _ := n["required"].([]any)
	for _, r := range list {
		s, _ := r.(string)
		required[s] = true
	}
	for _, p := range slices.Sorted(maps.Keys(props)) {
		if !required[p] {
			return at(fmt.Sprintf("'required' is required to be supplied and to be an array including every key in properties. Missing '%s'", p))
		}
	}
	for r := range required {
		if _, ok := props[r]; !ok {
			return at(fmt.Sprintf("'required' names '%s', which is not in properties", r))
		}
	}
	for _, p := range slices.Sorted(maps.Keys(props)) {
		c.props++
		c.chars += utf8.RuneCountInString(p)
		m, ok := props[p].(map[string]any)
		if !ok {
			return at(fmt.Sprintf("property '%s' must be a schema", p))
		}
		if err := c.node(m, append(path, "properties", p), depth+1); err != nil {
			return err
		}
	}
	return nil
}

// values checks type names, formats and enum and const values, counting
// them toward the size limits.
func (c *strictCheck) values(n map[string]any, at func(string) *strictError) *strictError {
	types, _ := n["type"].([]any)
	if s, ok := n["type"].(string); ok {
		types = []any{s}
	}
	for _, t := range types {
		if !slices.Contains([]any{"string", "number", "integer", "boolean", "object", "array", "null"}, t) {
			return at(fmt.Sprintf("type %v is not supported", t))
		}
	}
	if f, ok := n["format"]; ok && !slices.Contains(strictFormats, fmt.Sprint(f)) {
		return at(fmt.Sprintf("format '%v' is not supported", f))
	}
	if e, ok := n["enum"]; ok {
		vals, ok := e.([]any)
		if !ok || len(vals) == 0 {
			return at("'enum' must be a non-empty list")
		}
		chars := 0
		for _, v := range vals {
			if s, ok := v.(string); ok {
				chars += utf8.RuneCountInString(s)
			}
		}
		if len(vals) > strictBigEnum && chars > strictMaxEnumChars {
			return at(fmt.Sprintf("an enum of %d values may hold at most %d characters, not %d", len(vals), strictMaxEnumChars, chars))
		}
		c.enums += len(vals)
		c.chars += chars
	}
	if s, ok := n["const"].(string); ok {
		c.chars += utf8.RuneCountInString(s)
	}
	return nil
}

// typeIs reports whether a schema's "type" (a name or a list) includes typ.
func typeIs(t any, typ string) bool {
	switch t := t.(type) {
	case string:
		return t == typ
	case []any:
		return slices.Contains(t, any(typ))
	}
	return false
}

// contextOf writes a path as OpenAI does: ('properties', 'label').
func contextOf(path []string) string {
	q := make([]string, len(path))
	for i, p := range path {
		q[i] = "'" + p + "'"
	}
	return strings.Join(q, ", ")
}
