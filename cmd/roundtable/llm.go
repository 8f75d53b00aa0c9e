package main

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
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

// apply folds the flags into the endpoint list: they override the first
// endpoint, or make one when the config has none.
func (l llmFlags) apply(eps []LLMConfig) []LLMConfig {
	if l.baseURL == "" && l.model == "" && l.keyEnv == "" {
		return eps
	}
	eps = append([]LLMConfig(nil), eps...)
	if len(eps) == 0 {
		eps = append(eps, LLMConfig{Name: "default", Timeout: Duration(openai.DefaultTimeout), MaxRetries: openai.DefaultMaxRetries})
	}
	if l.baseURL != "" {
		eps[0].BaseURL = l.baseURL
	}
	if l.model != "" {
		eps[0].Model = l.model
	}
	if l.keyEnv != "" {
		eps[0].APIKeyEnv = l.keyEnv
	}
	return eps
}

// minds holds the endpoints and the agents that think with them.
type minds struct {
	eps     openai.Pool
	presets map[string]AgentConfig
	log     *slog.Logger
}

// mindOptions say how the endpoints are used.
type mindOptions struct {
	// seats is the most agents a table has: an endpoint without
	// max_concurrent allows at least that many calls at once, so one phase
	// is never queued behind itself.
	seats int
	// live is set for `serve`: an endpoint without breaker_failures never
	// gives up for want of a server (a live table outlasts an outage; the
	// phase deadlines bound it), only on answers no retry can change.
	live bool
}

// newMinds builds a client per endpoint, logging through the app's logger.
// API keys come from the named environment variables; a named but empty
// one is an error naming the key.
func (a *App) newMinds(cfg Config, flags llmFlags, opt mindOptions) (*minds, error) {
	m := &minds{presets: map[string]AgentConfig{}, log: a.logger()}
	for i, ep := range flags.apply(cfg.LLM) {
		key := fmt.Sprintf("llm[%d]", i)
		if ep.BaseURL == "" || ep.Model == "" {
			return nil, usagef("%s: base_url and model are required (or pass --llm-base-url and --llm-model)", key)
		}
		c := openai.Config{Name: ep.Name, BaseURL: ep.BaseURL, Model: ep.Model, MaxTokens: ep.MaxTokens,
			Timeout: time.Duration(ep.Timeout), StructuredOutput: agent.OutputMode(ep.StructuredOutput),
			MaxConcurrent: ep.MaxConcurrent, RequestsPerMinute: ep.RequestsPerMinute, TokensPerMinute: ep.TokensPerMinute,
			PricePer1KPrompt: ep.PricePer1KPrompt, PricePer1KCompletion: ep.PricePer1KCompletion, MaxRetries: ep.MaxRetries,
			BreakerFailures: ep.BreakerFailures, Temperature: ep.Temperature}
		if c.MaxConcurrent == 0 {
			c.MaxConcurrent = max(openai.DefaultMaxConcurrent, opt.seats)
		}
		if c.BreakerFailures == 0 && opt.live {
			c.BreakerFailures = -1
		}
		if ep.APIKeyEnv != "" {
			v := a.Getenv(ep.APIKeyEnv)
			if v == "" {
				return nil, usagef("%s%s.api_key_env: the environment variable %s is empty or unset", a.configFile(), key, ep.APIKeyEnv)
			}
			c.APIKey = openai.Secret(v)
		}
		m.eps.Add(openai.New(c, openai.WithLogger(m.log)))
	}
	for _, p := range cfg.Agents {
		m.presets[p.Name] = p
	}
	return m, nil
}

// presetSeat returns the participant an [[agent]] preset sits as.
func presetSeat(p AgentConfig) roundtable.Participant {
	return roundtable.Participant{ID: "agent:" + slug(p.Name), Name: p.Name, Kind: roundtable.Bot,
		Background: p.Background, Goal: p.Goal, Stance: p.Stance, Agent: "preset:" + p.Name}
}

// agent builds what acts for a bot participant. Participant.Agent says
// which: "utility", "facilitator", "llm[:endpoint]", "preset:NAME" or a
// protocol's agent kind; a live study's seat adds, after "?", its model's
// own options (experiment.SeatAgent) or its model-free agent's settings
// (experiment.ModelFreeSeat).
func (m *minds) agent(p roundtable.Participant, task roundtable.Task) (roundtable.Agent, error) {
	if ag, ok, err := experiment.ModelFreeAgent(p.Agent); ok {
		if err != nil {
			return nil, fmt.Errorf("participant %s: %w", p.Name, err)
		}
		return ag, nil
	}
	kind, o, err := experiment.ParseSeatAgent(p.Agent)
	if err != nil {
		return nil, fmt.Errorf("participant %s: %w", p.Name, err)
	}
	if kind != p.Agent {
		return m.seatAgent(p, kind, task, o)
	}
	if ag, ok, err := m.protocolModelAgent(p, experiment.ModelOptions{}); ok {
		return ag, err
	}
	kind, arg, _ := strings.Cut(p.Agent, ":")
	switch kind {
	case "utility":
		x, ok := task.(*exchange.Task)
		if !ok {
			return nil, fmt.Errorf("utility agents only play the exchange economy, not the %s task", task.Kind())
		}
		return &exchange.UtilityAgent{Task: x}, nil
	case "facilitator":
		return facilitator.Agent{}, nil
	case "llm":
		return m.llmAgent(arg, task, AgentConfig{Memory: "full"})
	case "preset":
		pre, ok := m.presets[arg]
		if !ok {
			return nil, fmt.Errorf("no [[agent]] preset is named %q", arg)
		}
		return m.llmAgent(pre.Endpoint, task, pre)
	}
	return nil, fmt.Errorf("participant %s has unknown agent kind %q", p.Name, p.Agent)
}

// seatAgent is the agent of a live study's seat p of kind, whose model
// is asked as o says, as the headless run asks it (simAgent): a
// protocol's own model seat, or a language-model participant at the
// kind's endpoint ("llm:ENDPOINT").
func (m *minds) seatAgent(p roundtable.Participant, kind string, task roundtable.Task, o experiment.ModelOptions) (roundtable.Agent, error) {
	p.Agent = kind
	if ag, ok, err := m.protocolModelAgent(p, o); ok {
		return ag, err
	}
	llm, endpoint, _ := strings.Cut(kind, ":")
	if llm != "llm" {
		return nil, fmt.Errorf("participant %s: agent %q: only a language model (llm[:ENDPOINT]) takes a model's options", p.Name, kind)
	}
	o.Endpoint = endpoint
	return m.modelAgent(task, o)
}

func (m *minds) llmAgent(endpoint string, task roundtable.Task, pre AgentConfig) (roundtable.Agent, error) {
	c, err := m.client(endpoint)
	if err != nil {
		return nil, err
	}
	sig, err := m.personaSignal(pre.PersonaUpdate, endpoint)
	if err != nil {
		return nil, err
	}
	return agent.New(c, task, agent.Options{Memory: pre.Memory, Window: pre.Window, ContextChars: pre.ContextChars, Signal: sig, Logger: m.log}), nil
}

// client is the endpoint named name, or the first for "".
func (m *minds) client(name string) (*openai.Client, error) {
	c, ok := m.eps.Client(name)
	if !ok {
		if m.eps.Len() == 0 {
			return nil, fmt.Errorf("no language model is configured: add an [[llm]] endpoint or pass --llm-base-url and --llm-model")
		}
		return nil, fmt.Errorf("no [[llm]] endpoint is named %q", name)
	}
	return c, nil
}

// maxTableAgents is the most bot agents a live table is configured with
// ([bot] or a [[table]] preset), for the endpoints' default concurrency.
func (c Config) maxTableAgents() int {
	n := len(c.Bot.Agents)
	for _, t := range c.Tables {
		n = max(n, len(t.Agents))
	}
	return n
}

// stopOnBrokenEndpoint cancels ctx, with the endpoint's message as the
// cause, as soon as any endpoint's circuit breaker opens. The watchers end
// with ctx.
func (m *minds) stopOnBrokenEndpoint(ctx context.Context, cancel context.CancelCauseFunc) {
	m.eps.OnBroken(ctx, func(_ string, err error) {
		cancel(fmt.Errorf("stopped: %w (finished tables are kept; run the same command again to resume)", err))
	})
}

// logBrokenEndpoints logs, as an error, each endpoint whose breaker opens
// while a live server runs: its agents fail until the config is fixed and
// the server restarted. The watchers end with ctx.
func (m *minds) logBrokenEndpoints(ctx context.Context) {
	m.eps.OnBroken(ctx, func(name string, err error) {
		m.log.Error("language-model endpoint cannot serve; its agents' actions fail until it is fixed and roundtable restarted", "endpoint", name, "err", err)
	})
}

// simAgent is a language-model agent of a headless run: at RoundTable's
// tasks the seat's own (llm or preset:NAME), at a protocol's table or in
// a study one asked as o says; halted once an endpoint is broken.
func (m *minds) simAgent(p roundtable.Participant, task roundtable.Task, o experiment.ModelOptions) (roundtable.Agent, error) {
	var ag roundtable.Agent
	var err error
	if pa, ok, perr := m.protocolModelAgent(p, o); ok {
		ag, err = pa, perr
	} else if o != (experiment.ModelOptions{}) {
		ag, err = m.modelAgent(task, o)
	} else {
		ag, err = m.agent(p, task)
	}
	if _, model := ag.(roundtable.Described); err != nil || !model {
		return ag, err // a model-free agent never waits on an endpoint
	}
	return haltOnBroken{Agent: ag, m: m}, nil
}

// protocolModelAgent is the agent of a protocol's own seat that asks a
// model (a mediation table's mediator), over the seat's endpoint (its
// Agent field's), else o's; ok is false for any other seat.
func (m *minds) protocolModelAgent(p roundtable.Participant, o experiment.ModelOptions) (roundtable.Agent, bool, error) {
	pm, endpoint, ok := protocol.ModelSeat(p)
	if !ok {
		return nil, false, nil
	}
	c, err := m.client(cmp.Or(endpoint, o.Endpoint))
	if err != nil {
		return nil, true, fmt.Errorf("%s: %w", p.Name, err)
	}
	ag, _ := pm.ModelAgent(p, c, o.Model, o.Temperature)
	return ag, true, nil
}

// modelAgent is a language-model agent asked as o says: its endpoint
// ("" the first), model and sampling over the endpoint's, and memory.
func (m *minds) modelAgent(task roundtable.Task, o experiment.ModelOptions) (roundtable.Agent, error) {
	c, err := m.client(o.Endpoint)
	if err != nil {
		return nil, err
	}
	sig, err := m.personaSignal(o.PersonaUpdate, o.Endpoint)
	if err != nil {
		return nil, err
	}
	return agent.New(c, task, agent.Options{Model: o.Model, Temperature: o.Temperature, MaxTokens: o.MaxTokens,
		Memory: o.Memory, Window: o.Window, ContextChars: o.ContextChars, Signal: sig, Logger: m.log}), nil
}

// personaSignal is the opinion signal a chatroom agent's persona follows
// under update (chatroom.ParsePersonaUpdate): the presence and signal
// classifiers asked of an endpoint (the seat's own unless named), each
// label by the majority of label.DefaultSamples answers as the paper
// does; the offline lexicon; or none. Only chatroom tables use it.
func (m *minds) personaSignal(update, seatEndpoint string) (agent.OpinionSignal, error) {
	mode, endpoint, err := chatroom.ParsePersonaUpdate(update)
	switch {
	case err != nil:
		return nil, err
	case mode == chatroom.PersonaFixed:
		return nil, nil
	case mode == chatroom.PersonaLexicon:
		return stance.Signal{}, nil
	}
	c, err := m.client(cmp.Or(endpoint, seatEndpoint))
	if err != nil {
		return nil, fmt.Errorf("persona_update: %w", err)
	}
	return stance.Signal{Labeler: &label.Sampler{LLM: c, Endpoint: c.Config().Name, K: label.DefaultSamples}}, nil
}

// haltOnBroken wraps the agents of a headless run: once an endpoint's
// breaker is open, an action is not recorded as a failure; the agent waits
// for the run to stop (stopOnBrokenEndpoint cancels it) so that a resumed
// run asks again.
type haltOnBroken struct {
	roundtable.Agent
	m *minds
}

// Provenance implements roundtable.Described: the wrapped model agent's.
func (h haltOnBroken) Provenance(pr *roundtable.Protocol) roundtable.AgentProvenance {
	return h.Agent.(roundtable.Described).Provenance(pr)
}

// Act implements roundtable.Agent.
func (h haltOnBroken) Act(ctx context.Context, v roundtable.View) (roundtable.Action, error) {
	a, err := h.Agent.Act(ctx, v)
	if h.m.eps.Err() != nil {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return a, err
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}
