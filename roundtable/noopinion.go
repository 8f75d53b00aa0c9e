package roundtable

import (
	"math"
	"strings"
)

// Decision: an agent with no opinion model (a rule-based exchange trader,
// a recommendation baseline, the Facilitator) still answers a survey
// phase, so that a table with a survey (self-reports, a protocol's own
// survey) goes on without a failure every round. It reports the middle of
// the scale with a reason that starts with NoOpinionReason; analyses of
// stance and self-reports leave such answers out (IsNoOpinion), so the
// middle value is never read as a view.

// NoOpinionReason starts the reason of every survey answer given by an
// agent that has no opinion model.
const NoOpinionReason = "no opinion model"

// Middle returns the middle of s, on its steps, once per item.
func (s Scale) Middle() []float64 {
	x := (s.Min + s.Max) / 2
	if s.Step > 0 {
		x = s.Min + math.Floor((x-s.Min)/s.Step)*s.Step
	}
	out := make([]float64, s.Values())
	for i := range out {
		out[i] = x
	}
	return out
}

// NoOpinion is the survey answer of an agent with no opinion model: the
// middle of s, with a reason that starts with NoOpinionReason and says
// why (who).
func NoOpinion(s Scale, who string) Report {
	return Report{Values: s.Middle(), Reason: NoOpinionReason + ": " + who}
}

// IsNoOpinion reports whether a survey answer's reason marks it as given
// by an agent with no opinion model (see NoOpinion).
func IsNoOpinion(reason string) bool { return strings.HasPrefix(reason, NoOpinionReason) }
