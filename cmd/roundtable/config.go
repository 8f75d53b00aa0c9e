package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
)

// Config is the whole configuration file. Every key is documented, with its
// default, in config.example.toml; TestExampleConfigIsDefault keeps the two
// in step.
type Config struct {
	Store   StoreConfig    `toml:"store"`
	Sim     SimConfig      `toml:"sim"`
	LLM     []LLMConfig    `toml:"llm"`
	Agents  []AgentConfig  `toml:"agent"`
	Bot     BotConfig      `toml:"bot"`
	Tables  []TableConfig  `toml:"table"`
	Web     WebConfig      `toml:"web"`
	Discord *DiscordConfig `toml:"discord"`
	Slack   *SlackConfig   `toml:"slack"`
}

// StoreConfig says where tables are kept: a bbolt file (the default) or
// an etcd cluster that several processes share (see storeconfig.go).
type StoreConfig struct {
	Backend     string   `toml:"backend"`
	Path        string   `toml:"path"`
	LockTimeout Duration `toml:"lock_timeout"`
	EtcdConfig
}

// SimConfig holds the defaults of `roundtable sim`; flags override them.
type SimConfig struct {
	Task         string   `toml:"task"`
	Topic        string   `toml:"topic"`
	Preset       string   `toml:"preset"`
	Rule         string   `toml:"rule"`
	Tie          string   `toml:"tie"`
	EarlyStop    string   `toml:"early_stop"`
	Agents       int      `toml:"agents"`
	Rounds       int      `toml:"rounds"`
	Runs         int      `toml:"runs"`
	Seed         int64    `toml:"seed"`
	Out          string   `toml:"out"`
	Concurrency  int      `toml:"concurrency"`
	PhaseTimeout Duration `toml:"phase_timeout"`
	Data         string   `toml:"data"`
	ProtocolSettings
}

// LLMConfig is one OpenAI-compatible endpoint.
type LLMConfig struct {
	Name                 string   `toml:"name"`
	BaseURL              string   `toml:"base_url"`
	Model                string   `toml:"model"`
	APIKeyEnv            string   `toml:"api_key_env"`
	Temperature          *float64 `toml:"temperature"` // unset: the server's default
	MaxTokens            int      `toml:"max_tokens"`
	Timeout              Duration `toml:"timeout"`
	StructuredOutput     string   `toml:"structured_output"`
	MaxConcurrent        int      `toml:"max_concurrent"` // 0: max(8, agents per table)
	BreakerFailures      int      `toml:"breaker_failures"`
	RequestsPerMinute    int      `toml:"requests_per_minute"`
	TokensPerMinute      int      `toml:"tokens_per_minute"`
	MaxRetries           int      `toml:"max_retries"`
	PricePer1KPrompt     float64  `toml:"price_per_1k_prompt"`
	PricePer1KCompletion float64  `toml:"price_per_1k_completion"`
}

// AgentConfig is an agent preset: a persona and the endpoint it thinks with.
type AgentConfig struct {
	Name       string `toml:"name"`
	Endpoint   string `toml:"endpoint"`
	Background string `toml:"background"`
	Goal       string `toml:"goal"`
	Stance     string `toml:"stance"`
	Memory     string `toml:"memory"`
	Window     int    `toml:"window"`
	// ContextChars is a chatroom agent's memory: the recent messages that
	// fit in this many characters (0: agent.DefaultContextChars).
	ContextChars int `toml:"context_chars"`
	// PersonaUpdate is how the agent's persona follows its messages at a
	// chatroom table: signal, signal:ENDPOINT, lexicon or none.
	PersonaUpdate string `toml:"persona_update"`
}

// Duration is a time.Duration written as "30s", "2m".
type Duration time.Duration

// UnmarshalText parses a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("want a duration such as \"30s\" or \"2m\": %w", err)
	}
	*d = Duration(v)
	return nil
}

// MarshalText writes the duration as a Go duration string.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// DefaultConfig is the embedded configuration used without a file.
func DefaultConfig() Config {
	return Config{
		Store: StoreConfig{Backend: "bbolt", Path: "roundtable.db", LockTimeout: Duration(time.Second), EtcdConfig: etcdDefaults()},
		Sim: SimConfig{Task: "exchange", Preset: "asymmetric", Rule: "majority", Tie: "defer", EarlyStop: "none",
			Agents: 3, Rounds: 10, Runs: 10, Seed: 1, Out: "runs", PhaseTimeout: Duration(2 * time.Minute),
			ProtocolSettings: protocolDefaults()},
		Bot: BotConfig{TableSettings: TableSettings{Rule: "plurality", Tie: "defer", Mode: "sealed", EarlyStop: "none", Rounds: 3,
			Message: Duration(3 * time.Minute), Proposal: Duration(3 * time.Minute), Vote: Duration(2 * time.Minute),
			Agents: []string{"Facilitator"}, AuditSettings: AuditSettings{Audit: []string{}}}, AgentTimeout: Duration(2 * time.Minute), AuditModel: AuditModel{AuditSamples: 10}},
		Web: WebConfig{Enabled: "auto", Addr: "127.0.0.1:8080"},
	}
}

// LoadConfig reads the file at path over the defaults; "" gives the
// defaults. Unknown keys are errors that name the key, the line and the file.
func LoadConfig(path string) (Config, error) {
	cfg := DefaultConfig()
	if path == "" {
		return cfg, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return cfg, fmt.Errorf("read config: %w", err)
	}
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return cfg, fmt.Errorf("config %s: %s", path, experiment.TOMLError(err))
	}
	if err := bareDurations(data); err != nil {
		return cfg, fmt.Errorf("config %s: %w", path, err)
	}
	cfg.applyDefaults()
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("config %s: %w", path, err)
	}
	return cfg, nil
}

// applyDefaults fills what a file left out inside repeated sections.
func (c *Config) applyDefaults() {
	for i := range c.LLM {
		l := &c.LLM[i]
		if l.Timeout == 0 {
			l.Timeout = Duration(openai.DefaultTimeout)
		}
		if l.MaxRetries == 0 {
			l.MaxRetries = openai.DefaultMaxRetries
		}
	}
	for i := range c.Agents {
		if c.Agents[i].Memory == "" {
			c.Agents[i].Memory = "full"
		}
	}
	if c.Discord != nil {
		c.Discord.applyDefaults()
	}
	if c.Slack != nil {
		c.Slack.applyDefaults()
	}
}

// Validate reports the first problem, naming its key.
func (c Config) Validate() error {
	if err := c.Store.validate(); err != nil {
		return err
	}
	if c.Sim.Agents < 1 || c.Sim.Rounds < 1 || c.Sim.Runs < 1 {
		return errors.New("sim.agents, sim.rounds and sim.runs must be at least 1")
	}
	names := map[string]bool{}
	for i, l := range c.LLM {
		key := fmt.Sprintf("llm[%d]", i)
		switch {
		case l.Name == "":
			return fmt.Errorf("%s.name: is empty", key)
		case names[l.Name]:
			return fmt.Errorf("%s.name: %q is used twice", key, l.Name)
		case l.BaseURL == "":
			return fmt.Errorf("%s.base_url: is empty", key)
		case l.Model == "":
			return fmt.Errorf("%s.model: is empty", key)
		}
		switch l.StructuredOutput {
		case "", "json_schema", "json_object", "none":
		default:
			return fmt.Errorf("%s.structured_output: %q is not json_schema, json_object or none", key, l.StructuredOutput)
		}
		if t := l.Temperature; t != nil && (*t < 0 || *t > 2) {
			return fmt.Errorf("%s.temperature: %g is out of range 0..2", key, *t)
		}
		names[l.Name] = true
	}
	for i, ag := range c.Agents {
		key := fmt.Sprintf("agent[%d]", i)
		switch {
		case ag.Name == "":
			return fmt.Errorf("%s.name: is empty", key)
		case ag.Endpoint != "" && !names[ag.Endpoint]:
			return fmt.Errorf("%s.endpoint: no [[llm]] endpoint is named %q", key, ag.Endpoint)
		}
		switch ag.Memory {
		case "full", "window", "reflective":
		default:
			return fmt.Errorf("%s.memory: %q is not full, window or reflective", key, ag.Memory)
		}
		if ag.ContextChars < 0 {
			return fmt.Errorf("%s.context_chars: %d is negative", key, ag.ContextChars)
		}
		if _, ep, err := chatroom.ParsePersonaUpdate(ag.PersonaUpdate); err != nil || (ep != "" && !names[ep]) {
			if err == nil {
				err = fmt.Errorf("no [[llm]] endpoint is named %q", ep)
			}
			return fmt.Errorf("%s.persona_update: %w", key, err)
		}
	}
	return c.validateServe()
}
