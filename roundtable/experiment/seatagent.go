package experiment

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/agent"
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
