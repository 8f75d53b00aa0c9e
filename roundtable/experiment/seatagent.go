package experiment

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// SeatAgent is the Participant.Agent of a live seat whose language model
// is asked as o says: kind (its agent kind, "llm:ENDPOINT" or a
// protocol's own model seat) and, after "?", o's model, sampling and
// memory as a query ("llm:lab?model=m&temperature=0.2"). The table's log
// keeps it, so a resumed table asks its model the same way. o's Endpoint
// is kind's to name; ParseSeatAgent reads the result back.
func SeatAgent(kind string, o ModelOptions) string {
	q := url.Values{}
	set := func(key, v string) {
		if v != "" {
			q.Set(key, v)
		}
	}
	set("model", o.Model)
	if o.Temperature != nil {
		set("temperature", strconv.FormatFloat(*o.Temperature, 'g', -1, 64))
	}
	if o.MaxTokens != 0 {
		set("max_tokens", strconv.Itoa(o.MaxTokens))
	}
	set("memory", o.Memory)
	if o.Window != 0 {
		set("window", strconv.Itoa(o.Window))
	}
	if o.ContextChars != 0 {
		set("context_chars", strconv.Itoa(o.ContextChars))
	}
	set("persona_update", o.PersonaUpdate)
	if len(q) == 0 {
		return kind
	}
	return kind + "?" + q.Encode()
}

// ParseSeatAgent splits a Participant.Agent written by SeatAgent into its
// kind and what its model is asked with (no Endpoint: the kind names
// it). An Agent without "?" is its own kind with zero options; an
// unknown, repeated or malformed option is an error naming it.
func ParseSeatAgent(s string) (kind string, o ModelOptions, err error) {
	kind, query, ok := strings.Cut(s, "?")
	if !ok {
		return s, o, nil
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return kind, o, fmt.Errorf("agent %q: %w", s, err)
	}
	number := func(key, v string) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("agent %q: %s: want a positive whole number, not %q", s, key, v)
		}
		return n, nil
	}
	for key, vs := range q {
		if len(vs) != 1 || vs[0] == "" {
			return kind, o, fmt.Errorf("agent %q: %s: give it once, with a value", s, key)
		}
		v := vs[0]
		switch key {
		case "model":
			o.Model = v
		case "temperature":
			t, perr := strconv.ParseFloat(v, 64)
			if perr != nil || t < 0 || t > 2 {
				return kind, o, fmt.Errorf("agent %q: temperature: want a number in 0..2, not %q", s, v)
			}
			o.Temperature = &t
		case "max_tokens":
			o.MaxTokens, err = number(key, v)
		case "memory":
			if v != agent.MemoryFull && v != agent.MemoryWindow && v != agent.MemoryReflective {
				return kind, o, fmt.Errorf("agent %q: memory: %q is not full, window or reflective", s, v)
			}
			o.Memory = v
		case "window":
			o.Window, err = number(key, v)
		case "context_chars":
			o.ContextChars, err = number(key, v)
		case "persona_update":
			o.PersonaUpdate = v
		default:
			return kind, o, fmt.Errorf("agent %q: %q is no option of a seat's model (model, temperature, max_tokens, memory, window, context_chars, persona_update)", s, key)
		}
		if err != nil {
			return kind, o, err
		}
	}
	return kind, o, nil
}

// ModelFreeSeat is the Participant.Agent of a live seat played by a
// protocol's model-free agent of kind at a table of settings s: kind and,
// after "?", what its agents play with where it differs from a recipe's
// defaults ("degroot?confirmation_bias=strong&weight=0.9"), so that a
// live (and a resumed) table's agent is the headless one. ModelFreeAgent
// reads it.
func ModelFreeSeat(kind string, s protocol.Settings) string {
	q := url.Values{}
	def := defaultAgentSettings()
	for _, f := range agentSettings() {
		if v := f.value(s); v != f.value(def) {
			q.Set(f.key, v)
		}
	}
	if len(q) == 0 {
		return kind
	}
	return kind + "?" + q.Encode()
}

// ModelFreeAgent is the model-free agent a seat's Agent names (its kind,
// with the settings ModelFreeSeat wrote, the recipe's defaults for the
// rest); ok is false when no protocol has agents of its kind. An unknown,
// repeated or malformed setting is an error naming it.
func ModelFreeAgent(agent string) (ag roundtable.Agent, ok bool, err error) {
	kind, query, _ := strings.Cut(agent, "?")
	for _, p := range protocol.All() {
		a, has := p.(protocol.Agents)
		if !has || !slices.Contains(a.AgentKinds(), kind) {
			continue
		}
		s := defaultAgentSettings()
		s.Protocol, s.Agent = p.Name(), kind
		if err := readAgentSettings(agent, query, &s); err != nil {
			return nil, true, err
		}
		ag, err := a.Agent(kind, s)
		return ag, true, err
	}
	return nil, false, nil
}

// defaultAgentSettings are the settings of a recipe that tunes nothing.
func defaultAgentSettings() protocol.Settings {
	r := DefaultRecipe()
	return protocol.Settings{Alpha: r.Alpha, Weight: r.Weight, Mu: r.Mu, Epsilon: r.Epsilon, Memory: r.Memory, ConfirmationBias: r.ConfirmationBias}
}

// agentSetting is a setting the protocols' model-free agents play with
// (their Agent reads it), as a seat's Agent writes it.
type agentSetting struct {
	key   string
	value func(protocol.Settings) string
	set   func(*protocol.Settings, string) error
}

func numberSetting(key string, f func(*protocol.Settings) *float64) agentSetting {
	return agentSetting{key: key,
		value: func(s protocol.Settings) string { return strconv.FormatFloat(*f(&s), 'g', -1, 64) },
		set: func(s *protocol.Settings, v string) error {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return fmt.Errorf("%s: want a number, not %q", key, v)
			}
			*f(s) = x
			return nil
		}}
}

func textSetting(key string, f func(*protocol.Settings) *string) agentSetting {
	return agentSetting{key: key, value: func(s protocol.Settings) string { return *f(&s) },
		set: func(s *protocol.Settings, v string) error { *f(s) = v; return nil }}
}

// agentSettings are what the model-free agents play with.
func agentSettings() []agentSetting {
	return []agentSetting{
		numberSetting("alpha", func(s *protocol.Settings) *float64 { return &s.Alpha }),
		numberSetting("weight", func(s *protocol.Settings) *float64 { return &s.Weight }),
		numberSetting("mu", func(s *protocol.Settings) *float64 { return &s.Mu }),
		numberSetting("epsilon", func(s *protocol.Settings) *float64 { return &s.Epsilon }),
		textSetting("memory", func(s *protocol.Settings) *string { return &s.Memory }),
		textSetting("confirmation_bias", func(s *protocol.Settings) *string { return &s.ConfirmationBias }),
	}
}

// readAgentSettings sets s from a ModelFreeSeat query, strictly.
func readAgentSettings(agent, query string, s *protocol.Settings) error {
	if query == "" {
		return nil
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return fmt.Errorf("agent %q: %w", agent, err)
	}
	fields := agentSettings()
	for key, vs := range q {
		i := slices.IndexFunc(fields, func(f agentSetting) bool { return f.key == key })
		switch {
		case i < 0:
			return fmt.Errorf("agent %q: %q is no setting of a model-free agent (alpha, weight, mu, epsilon, memory, confirmation_bias)", agent, key)
		case len(vs) != 1 || vs[0] == "":
			return fmt.Errorf("agent %q: %s: give it once, with a value", agent, key)
		}
		if err := fields[i].set(s, vs[0]); err != nil {
			return fmt.Errorf("agent %q: %w", agent, err)
		}
	}
	return nil
}
