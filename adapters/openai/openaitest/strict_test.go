package openaitest_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
)

// TestCheckStrictAcceptsWhatOpenAIDocuments: the examples of OpenAI's
// "Supported schemas" (nullable unions, anyOf below the root, definitions,
// recursion, the supported string, number and array keywords) pass.
func TestCheckStrictAcceptsWhatOpenAIDocuments(t *testing.T) {
	for name, schema := range map[string]string{
		"weather": `{"type":"object","properties":{"location":{"type":"string","description":"where"},
			"unit":{"type":["string","null"],"enum":["F","C"]}},"additionalProperties":false,"required":["location","unit"]}`,
		"restrictions": `{"type":"object","properties":{"name":{"type":"string"},"username":{"type":"string","pattern":"^@[a-zA-Z0-9_]+$"},
			"email":{"type":"string","format":"email"},"score":{"type":"number","minimum":-1,"maximum":1,"multipleOf":0.5},
			"stars":{"type":"integer","exclusiveMinimum":0,"exclusiveMaximum":6},"tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3}},
			"additionalProperties":false,"required":["name","username","email","score","stars","tags"]}`,
		"anyOf": `{"type":"object","properties":{"item":{"anyOf":[
			{"type":"object","properties":{"name":{"type":"string"}},"additionalProperties":false,"required":["name"]},
			{"type":"null"}]}},"additionalProperties":false,"required":["item"]}`,
		"defs": `{"type":"object","properties":{"steps":{"type":"array","items":{"$ref":"#/$defs/step"}}},
			"$defs":{"step":{"type":"object","properties":{"output":{"type":"string"}},"required":["output"],"additionalProperties":false}},
			"required":["steps"],"additionalProperties":false}`,
	} {
		if err := openaitest.CheckStrict(name, json.RawMessage(schema)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestCheckStrictRefusesWhatOpenAIRefuses names each rule a schema breaks,
// in OpenAI's words where it has them.
func TestCheckStrictRefusesWhatOpenAIRefuses(t *testing.T) {
	obj := func(props, required string) string {
		return fmt.Sprintf(`{"type":"object","properties":{%s},"required":[%s],"additionalProperties":false}`, props, required)
	}
	nested := `{"type":"string"}`
	for range 11 {
		nested = obj(`"x":`+nested, `"x"`)
	}
	enum := make([]string, 1001)
	for i := range enum {
		enum[i] = fmt.Sprintf("%q", fmt.Sprint(i))
	}
	for _, c := range []struct {
		name, schema, want string
	}{
		{"judgement", `{"type":"object","properties":{"agree":{"type":"boolean"},"label":{"type":"string"}},"required":["agree"],"additionalProperties":false}`,
			`In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'label'`},
		{"open", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`,
			`'additionalProperties' is required to be supplied and to be false`},
		{"nested", obj(`"a":{"type":"object","properties":{"b":{"type":"string"}},"required":[],"additionalProperties":false}`, `"a"`),
			`In context=('properties', 'a'), 'required' is required`},
		{"length", obj(`"a":{"type":"string","minLength":1}`, `"a"`), `In context=('properties', 'a'), 'minLength' is not permitted`},
		{"allOf", obj(`"a":{"allOf":[{"type":"string"}]}`, `"a"`), `'allOf' is not permitted`},
		{"default", obj(`"a":{"type":"string","default":"x"}`, `"a"`), `'default' is not permitted`},
		{"unique", obj(`"a":{"type":"array","items":{"type":"string"},"uniqueItems":true}`, `"a"`), `'uniqueItems' is not permitted`},
		{"format", obj(`"a":{"type":"string","format":"uri"}`, `"a"`), `format 'uri' is not supported`},
		{"misplaced", obj(`"a":{"type":"string","minimum":1}`, `"a"`), `'minimum' is not permitted for type string`},
		{"rootAnyOf", `{"anyOf":[{"type":"object","properties":{},"required":[],"additionalProperties":false}]}`, `the root schema must be an object`},
		{"deep", nested, `nested more than 10 levels`},
		{"enums", obj(`"a":{"type":"string","enum":[`+strings.Join(enum, ",")+`]}`, `"a"`), `1001 enum values`},
		{"bad name!", obj(``, ``), `does not match pattern`},
	} {
		err := openaitest.CheckStrict(c.name, json.RawMessage(c.schema))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
