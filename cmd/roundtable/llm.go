package main

import (
	"github.com/spf13/pflag"
)

// llmFlags override the default [[llm]] endpoint for a quick run.
type llmFlags struct {
	baseURL, model, keyEnv string
}

func (l *llmFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&l.baseURL, "llm-base-url", "", "OpenAI-compatible base URL, e.g. http://localhost:11434/v1 (overrides the first [[llm]])")
	fl.StringVar(&l.model, "llm-model", "", "model name, e.g. llama3.1")
	fl.StringVar(&l.keyEnv, "llm-api-key-env", "", "environment variable holding the API key (e.g. OPENAI_API_KEY)")
}

func (a *App) llmExperiment(cfg Config, f simFlags) (*experiment, error) {
	return nil, usagef("--agent llm: language-model agents are not wired into this build yet")
}
