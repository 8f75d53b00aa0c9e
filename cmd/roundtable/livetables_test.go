package main

import (
	"testing"
)

// Without a language model the lobby does not offer a built-in table
// whose seats ask one (mediation-llm could not run), nor those seats as
// bots; with an [[llm]] endpoint it offers both. The model-free
// mediation is offered either way.
func TestLiveTablesThatAskAModelNeedAnEndpoint(t *testing.T) {
	for _, c := range []struct {
		name   string
		llm    []LLMConfig
		offers bool
	}{
		{"no endpoint", nil, false},
		{"an endpoint", []LLMConfig{{Name: "local", BaseURL: "http://127.0.0.1:1/v1", Model: "m"}}, true},
	} {
		cfg := DefaultConfig()
		cfg.LLM = c.llm
		app := &App{Stderr: &lockedBuffer{wrote: make(chan struct{}, 1)}, Getenv: func(string) string { return "" }}
		m, err := app.newMinds(cfg, llmFlags{}, mindOptions{seats: 3, live: true})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		bc, err := app.botConfig(cfg, m)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, preset := bc.Presets["mediation-llm"]
		_, seat := bc.Agents["Mediator 1 (language model)"]
		if preset != c.offers || seat != c.offers {
			t.Errorf("%s: mediation-llm offered %v, its model mediator %v; want %v", c.name, preset, seat, c.offers)
		}
		if _, ok := bc.Presets["mediation"]; !ok {
			t.Errorf("%s: the model-free mediation is not offered", c.name)
		}
	}
}
