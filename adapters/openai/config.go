package openai

import (
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

// Secret is a credential. It prints, logs and encodes as "[redacted]" so
// that it cannot leak through fmt, log/slog or JSON; Reveal returns it.
type Secret string

const redacted = "[redacted]"

// String implements fmt.Stringer.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// GoString implements fmt.GoStringer, for %#v.
func (s Secret) GoString() string { return `"` + s.String() + `"` }

// LogValue implements slog.LogValuer.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalText implements encoding.TextMarshaler, so JSON and TOML encoders
// write the redacted form.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Reveal returns the secret itself.
func (s Secret) Reveal() string { return string(s) }

// Config describes one endpoint. Zero fields take the defaults listed.
type Config struct {
	Name    string `toml:"name" json:"name"`         // for logs and usage reports (default: Model)
	BaseURL string `toml:"base_url" json:"base_url"` // including /v1 (default https://api.openai.com/v1)
	Model   string `toml:"model" json:"model"`       // required
	// APIKey is the key's value, which the caller reads from the
	// environment; it is never read from or written to config files.
	APIKey Secret `toml:"-" json:"-"`
	// Temperature is the default sampling temperature; nil leaves the
	// server's default. Zero is sent as 0 (see setZeroTemperature).
	Temperature *float64 `toml:"temperature" json:"temperature,omitempty"`
	MaxTokens   int      `toml:"max_tokens" json:"max_tokens,omitempty"` // default answer bound; 0: none
	// Timeout bounds one HTTP attempt (default 45s); the caller's context
	// bounds the whole call, retries included. An attempt that times out
	// is not retried: the server took the request and did not answer, and
	// a hung server would make every retry wait as long again. Raise it
	// for a model that takes longer to answer.
	Timeout time.Duration `toml:"timeout" json:"timeout,omitempty"`
	// StructuredOutput is how JSON is asked for. Empty means json_schema,
	// falling back once to json_object (logged) if the server refuses
	// json_schema; a set value pins the mode.
	StructuredOutput agent.OutputMode `toml:"structured_output" json:"structured_output,omitempty"`
	MaxConcurrent    int              `toml:"max_concurrent" json:"max_concurrent,omitempty"` // requests in flight (default 8)
	// BreakerFailures is how many calls in a row may get no answer (no
	// server, 5xx after their retries, an attempt timing out, or the
	// caller's deadline passing while the server is silent) before the
	// endpoint is given up for the run (default 3; negative: never). A
	// refused key, an unknown model or an exhausted quota gives it up at
	// once.
	BreakerFailures int `toml:"breaker_failures" json:"breaker_failures,omitempty"`
	// RequestsPerMinute and TokensPerMinute are the endpoint's budgets;
	// 0 means unlimited. Tokens are estimated before a request (4 bytes a
	// token plus the answer bound) and corrected from the reported usage.
	RequestsPerMinute int `toml:"requests_per_minute" json:"requests_per_minute,omitempty"`
	TokensPerMinute   int `toml:"tokens_per_minute" json:"tokens_per_minute,omitempty"`
	// Prices in currency units per 1000 tokens, for Usage.Cost.
	PricePer1KPrompt     float64 `toml:"price_per_1k_prompt" json:"price_per_1k_prompt,omitempty"`
	PricePer1KCompletion float64 `toml:"price_per_1k_completion" json:"price_per_1k_completion,omitempty"`
	// MaxRetries is how often a failed attempt is retried (default 4;
	// negative: never): 408, 429, 5xx and network failures, not timeouts.
	MaxRetries int `toml:"max_retries" json:"max_retries,omitempty"`
	// BackoffBase and BackoffMax shape the exponential backoff (defaults
	// 500ms and 30s); MaxRetryAfter is the longest Retry-After honoured
	// (default 2m): a longer one fails the call at once.
	BackoffBase   time.Duration `toml:"backoff_base" json:"backoff_base,omitempty"`
	BackoffMax    time.Duration `toml:"backoff_max" json:"backoff_max,omitempty"`
	MaxRetryAfter time.Duration `toml:"max_retry_after" json:"max_retry_after,omitempty"`
}

// Defaults of Config.
const (
	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultTimeout is short of a minute, so that calls in flight to a
	// server that never answers (as many as BreakerFailures, the agents
	// of one phase) open the breaker within a minute, and of the default
	// phase timeout, so that an attempt ends before its phase does.
	DefaultTimeout         = 45 * time.Second
	DefaultMaxConcurrent   = 8
	DefaultMaxRetries      = 4
	DefaultBreakerFailures = 3
	DefaultBackoffBase     = 500 * time.Millisecond
	DefaultBackoffMax      = 30 * time.Second
	DefaultMaxRetryAfter   = 2 * time.Minute
)

// WithDefaults fills zero fields with their defaults.
func (c Config) WithDefaults() Config {
	set := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	if c.BaseURL == "" {
		c.BaseURL = DefaultBaseURL
	}
	if c.Name == "" {
		c.Name = c.Model
	}
	if c.StructuredOutput == "" {
		c.StructuredOutput = agent.OutputJSONSchema
	}
	if c.MaxConcurrent == 0 {
		c.MaxConcurrent = DefaultMaxConcurrent
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	if c.BreakerFailures == 0 {
		c.BreakerFailures = DefaultBreakerFailures
	}
	set(&c.Timeout, DefaultTimeout)
	set(&c.BackoffBase, DefaultBackoffBase)
	set(&c.BackoffMax, DefaultBackoffMax)
	set(&c.MaxRetryAfter, DefaultMaxRetryAfter)
	return c
}

// Validate reports the first problem with c (after defaults), naming the field.
func (c Config) Validate() error {
	if c.Model == "" {
		return fmt.Errorf("model: empty")
	}
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("base_url: %q is not an http(s) URL", c.BaseURL)
	}
	if !c.StructuredOutput.Valid() {
		return fmt.Errorf("structured_output: unknown mode %q (want json_schema, json_object or none)", c.StructuredOutput)
	}
	for _, f := range []struct {
		name string
		v    int64
	}{{"max_tokens", int64(c.MaxTokens)}, {"timeout", int64(c.Timeout)}, {"max_concurrent", int64(c.MaxConcurrent)},
		{"requests_per_minute", int64(c.RequestsPerMinute)}, {"tokens_per_minute", int64(c.TokensPerMinute)},
		{"backoff_base", int64(c.BackoffBase)}, {"backoff_max", int64(c.BackoffMax)}, {"max_retry_after", int64(c.MaxRetryAfter)}} {
		if f.v < 0 {
			return fmt.Errorf("%s: %d is negative", f.name, f.v)
		}
	}
	if c.Temperature != nil && (*c.Temperature < 0 || *c.Temperature > 2) {
		return fmt.Errorf("temperature: %g is out of range 0..2", *c.Temperature)
	}
	if c.PricePer1KPrompt < 0 || c.PricePer1KCompletion < 0 {
		return fmt.Errorf("price_per_1k_*: negative")
	}
	return nil
}

// String describes the endpoint without its key.
func (c Config) String() string {
	return fmt.Sprintf("openai endpoint %q (model %s at %s, key %s)", c.Name, c.Model, c.BaseURL, keyState(c.APIKey))
}

// LogValue implements slog.LogValuer: the endpoint without its key.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(slog.String("name", c.Name), slog.String("model", c.Model),
		slog.String("base_url", c.BaseURL), slog.String("api_key", keyState(c.APIKey)))
}

func keyState(s Secret) string {
	if s == "" {
		return "none"
	}
	return redacted
}
