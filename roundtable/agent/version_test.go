package agent_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
)

var hex12 = regexp.MustCompile(`^[0-9a-f]{12}$`)

// TestPromptVersionFollowsThePrompts: the version is the same every time
// for the same prompts, and differs for every schedule (each protocol's
// briefing and phases), for another memory (reflective notes are asked
// for), and for the schema written into the prompt instead of sent.
func TestPromptVersionFollowsThePrompts(t *testing.T) {
	schedules := map[string]*roundtable.Protocol{
		"roundtable": nil,
		"chatroom":   chatroom.Preset(protocol.Settings{Question: "Soup is good."}),
		"dyads":      dyads.Preset(protocol.Settings{Question: "Soup is good."}),
		"panel":      panel.Preset(protocol.Settings{Items: []string{"Ann", "Ben"}}),
	}
	seen := map[string]string{}
	add := func(name, v string) {
		t.Helper()
		if !hex12.MatchString(v) {
			t.Fatalf("%s: version %q is not 12 hex digits", name, v)
		}
		if other, dup := seen[v]; dup {
			t.Errorf("%s and %s have the same prompt version %s", name, other, v)
		}
		seen[v] = name
	}
	for name, pr := range schedules {
		v := agent.PromptVersion(pr, agent.Options{})
		if again := agent.PromptVersion(pr, agent.Options{}); again != v {
			t.Errorf("%s: version %s, then %s", name, v, again)
		}
		add(name, v)
	}
	add("reflective memory", agent.PromptVersion(nil, agent.Options{Memory: agent.MemoryReflective}))
	add("schema in the prompt", agent.PromptVersion(nil, agent.Options{StructuredOutput: agent.OutputNone}))
}

// describing is an LLM that says what it asks, and answers nothing.
type describing struct{ e agent.Endpoint }

func (d describing) Describe() agent.Endpoint { return d.e }

func (describing) Complete(context.Context, agent.Request) (agent.Response, error) {
	return agent.Response{}, &agent.Error{Code: agent.CodeRejected}
}

// TestProvenanceIsTheEndpointsUnderTheOptions: an agent records its
// endpoint's name, model and sampling, overridden by its own options, its
// memory and its prompts' version at the table's schedule.
func TestProvenanceIsTheEndpointsUnderTheOptions(t *testing.T) {
	hot, cold := 1.2, 0.0
	llm := describing{agent.Endpoint{Name: "lab", Model: "m-1", Temperature: &hot, MaxTokens: 300}}
	task := roundtable.TextTask{Topic: "soup?"}

	got := agent.New(llm, task, agent.Options{}).Provenance(nil)
	if got.Endpoint != "lab" || got.Model != "m-1" || *got.Temperature != hot || got.MaxTokens != 300 || got.Memory != agent.MemoryFull {
		t.Errorf("endpoint defaults: %+v", got)
	}
	if got.Template != agent.PromptVersion(nil, agent.Options{}) {
		t.Errorf("template %s, want the prompts' version %s", got.Template, agent.PromptVersion(nil, agent.Options{}))
	}

	opt := agent.Options{Model: "m-2", Temperature: &cold, MaxTokens: 50, Memory: agent.MemoryWindow, Window: 4}
	got = agent.New(llm, task, opt).Provenance(nil)
	if got.Model != "m-2" || *got.Temperature != 0 || got.MaxTokens != 50 || got.Memory != agent.MemoryWindow || got.Window != 4 {
		t.Errorf("options over the endpoint: %+v", got)
	}
	room := chatroom.Preset(protocol.Settings{Question: "Soup is good."})
	if at := agent.New(llm, task, opt).Provenance(room); at.Template == got.Template {
		t.Errorf("the same prompt version %s at a chatroom and at RoundTable's table", at.Template)
	}
}
