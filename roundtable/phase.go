package roundtable

import "fmt"

// Phase is a kind of phase of a round: RoundTable's three, and the survey
// and private-message phases of other protocols.
type Phase int

// The phases, in the order they run within a round.
const (
	PhaseNone Phase = iota
	PhaseMessage
	PhaseProposal
	PhaseVote
	PhaseSurvey  // each participant privately reports values on a scale
	PhasePrivate // messages only their author (and addressee) see
)

var phaseNames = [...]string{"none", "message", "proposal", "vote", "survey", "private"}

// String returns the phase's name.
func (p Phase) String() string {
	if p < 0 || int(p) >= len(phaseNames) {
		return fmt.Sprintf("phase(%d)", int(p))
	}
	return phaseNames[p]
}

// ParsePhase returns the phase with the given name.
func ParsePhase(s string) (Phase, error) {
	for i, n := range phaseNames {
		if n == s {
			return Phase(i), nil
		}
	}
	return PhaseNone, fmt.Errorf("unknown phase %q", s)
}

// MarshalText encodes the phase by name.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText decodes a phase name.
func (p *Phase) UnmarshalText(b []byte) error {
	v, err := ParsePhase(string(b))
	*p = v
	return err
}

// Usage is what an action cost: model calls and tokens.
type Usage struct {
	Calls            int   `json:"calls,omitempty"`
	PromptTokens     int   `json:"prompt_tokens,omitempty"`
	CompletionTokens int   `json:"completion_tokens,omitempty"`
	CachedTokens     int   `json:"cached_tokens,omitempty"`
	LatencyMS        int64 `json:"latency_ms,omitempty"`
	Retries          int   `json:"retries,omitempty"`
	// Model is the model the server said answered (its response's
	// "model"), which may differ from the one asked for; the models of
	// several calls are joined with commas (Models).
	Model string `json:"model,omitempty"`
}

// Add returns the sum of u and v; the models are joined.
func (u Usage) Add(v Usage) Usage {
	u.Calls += v.Calls
	u.PromptTokens += v.PromptTokens
	u.CompletionTokens += v.CompletionTokens
	u.CachedTokens += v.CachedTokens
	u.LatencyMS += v.LatencyMS
	u.Retries += v.Retries
	u.Model = mergeModels(u.Model, v.Model)
	return u
}
