package dyads

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// Update names a dyad agent's update rule.
type Update string

// The offline opinion-dynamics baselines of docs/protocol.md#offline-updates.
const (
	DeGroot  Update = "degroot"
	Deffuant Update = "deffuant"
)

// Dyad is the model-free agent of the dyads protocol. It states its
// belief in a fixed sentence that another Dyad parses, and when it reports
// it applies its update rule to what it heard this round. Its belief is
// its latest report, or its persona's stance before the first.
type Dyad struct {
	Rule    Update
	Weight  float64 // DeGroot w; 0 means opinion.DefaultWeight
	Mu      float64 // Deffuant mu; 0 means opinion.DefaultMu
	Epsilon float64 // Deffuant epsilon; 0 means opinion.DefaultEpsilon
	// Memory is MemoryCumulative (""), where the belief carried from one
	// experience to the next is exact, or MemoryReflective, where it is a
	// compact deterministic summary (see reflect).
	Memory string
	// Bias is a confirmation-bias level (opinion.BiasNone, BiasWeak,
	// BiasStrong): the update's weight shrinks with disagreement
	// (opinion.BiasFactor).
	Bias string
}

// The memory policies of an offline Dyad.
const (
	MemoryCumulative = "cumulative"
	MemoryReflective = "reflective"
)

// summaryPrefix labels the deterministic summary a reflective offline
// Dyad keeps in its report's reason.
const summaryPrefix = "offline reflective memory (deterministic summary): "

var _ roundtable.Agent = Dyad{}

var beliefRE = regexp.MustCompile(`my belief is ([+-]?[0-9]+(?:\.[0-9]+)?) on the scale`)

// Act implements roundtable.Agent.
func (d Dyad) Act(_ context.Context, v roundtable.View) (roundtable.Action, error) {
	x, err := Belief(v)
	if err != nil {
		return nil, err
	}
	switch v.Phase {
	case roundtable.PhaseMessage, roundtable.PhasePrivate:
		return roundtable.Say{Text: fmt.Sprintf("On %q my belief is %.4f on the scale from -2 (false) to 2 (true).", protocol.Claim(v), d.recall(x))}, nil
	case roundtable.PhaseSurvey:
		y, reason := d.update(d.recall(x), v)
		y = clamp(y, v.Scale)
		if d.Memory == MemoryReflective {
			reason = summaryPrefix + fmt.Sprintf("I %s (%s)", opinion.LevelName(y), reason)
		}
		return roundtable.Report{Values: []float64{y}, Reason: reason}, nil
	}
	return nil, fmt.Errorf("offline dyad: no action in the %s phase", v.Phase)
}

// recall is the belief the agent starts an experience from. Cumulative
// memory holds every experience, so the belief is exact. Reflective
// memory holds only a compact summary, which keeps the belief as one of
// the five stance levels (what a few sentences say of it), so the agent
// starts from that level.
func (d Dyad) recall(x float64) float64 {
	if d.Memory == MemoryReflective {
		return opinion.Round(x)
	}
	return x
}

func (d Dyad) update(x float64, v roundtable.View) (float64, string) {
	for _, m := range heard(v) {
		sub := beliefRE.FindStringSubmatch(m.Text)
		if sub == nil {
			continue
		}
		other, err := strconv.ParseFloat(sub[1], 64)
		if err != nil {
			continue
		}
		keep, _ := opinion.BiasFactor(d.Bias, other-x) // Validate reports a bad level
		if d.Rule == Deffuant {
			y, _ := opinion.Deffuant(x, other, keep*or(d.Mu, opinion.DefaultMu), or(d.Epsilon, opinion.DefaultEpsilon))
			return y, fmt.Sprintf("Deffuant update toward %s's %.4f", v.Name(m.From), other)
		}
		return opinion.DeGroot(x, other, keep*or(d.Weight, opinion.DefaultWeight)), fmt.Sprintf("DeGroot update toward %s's %.4f", v.Name(m.From), other)
	}
	return x, "heard no belief this round"
}

// Validate reports a Dyad's first bad setting.
func (d Dyad) Validate() error {
	switch d.Memory {
	case "", MemoryCumulative, MemoryReflective:
	default:
		return fmt.Errorf("memory %q is not %s or %s", d.Memory, MemoryCumulative, MemoryReflective)
	}
	_, err := opinion.BiasFactor(d.Bias, 0)
	return err
}

// Belief is Self's current belief: its latest report, else its persona's
// stance, else neutral.
func Belief(v roundtable.View) (float64, error) {
	if r := v.LastReport(); len(r) > 0 {
		return r[0], nil
	}
	if v.Self.Stance == "" {
		return 0, nil
	}
	x, err := opinion.ParseStance(v.Self.Stance)
	if err != nil {
		return 0, fmt.Errorf("participant %s: %w", v.Self.ID, err)
	}
	return x, nil
}

func clamp(x float64, s *roundtable.Scale) float64 {
	if s == nil {
		return x
	}
	return math.Max(s.Min, math.Min(s.Max, x))
}

func or(x, def float64) float64 {
	if x == 0 {
		return def
	}
	return x
}

// heard returns the messages of the current round addressed to Self by
// others.
func heard(v roundtable.View) []roundtable.Message {
	var out []roundtable.Message
	for _, m := range v.Current.Messages {
		if m.From != v.Self.ID && slices.Contains(m.To, v.Self.ID) {
			out = append(out, m)
		}
	}
	return out
}
