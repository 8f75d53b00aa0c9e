package agent

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// observedTag opens the note, at the end of a smoothed survey answer's
// reason (a panel judge's), that keeps the values S_O the model reported
// before the update.
const observedTag = "[S_O "

// parseJudgeSurvey parses a survey answer. Under a protocol that smooths
// its surveys (Briefing.Smoothing; the evaluation panel's sentiments) the
// model's values are S_O, the sentiment of this round, and the answer
// records S_i(t) = alpha*S_O + (1-alpha)*S_i(t-1) with the table's alpha
// and the judge's previous recorded answer (S_i = S_O in the first
// survey), as the offline evaluators do; the reason keeps S_O (see
// ObservedSentiment).
func parseJudgeSurvey(v roundtable.View, content string) (roundtable.Action, error) {
	act, err := parseSurvey(*v.Scale, content)
	sm := briefingOf(v).Smoothing
	if err != nil || sm.Param == "" {
		return act, err
	}
	r := act.(roundtable.Report)
	alpha := smoothingWeight(v, sm)
	so := r.Values
	r.Values = updateSentiment(v.LastReport(), so, alpha)
	r.Reason = observedNote(r.Reason, so, alpha)
	return r, nil
}

// smoothingWeight is the table's weight of the newest answer (the
// protocol parameter sm.Param, the panel's "alpha"), or sm.Default when it
// is missing or outside (0, 1].
func smoothingWeight(v roundtable.View, sm roundtable.Smoothing) float64 {
	a, err := strconv.ParseFloat(v.Params[sm.Param], 64)
	if err != nil || !(a > 0 && a <= 1) {
		return sm.Default
	}
	return a
}

// updateSentiment is the non-Bayesian update item by item, kept in -1..1;
// without a previous answer of the same length it is so itself.
func updateSentiment(prev, so []float64, alpha float64) []float64 {
	out := make([]float64, len(so))
	for i, s := range so {
		if len(prev) == len(so) {
			s = alpha*s + (1-alpha)*prev[i]
		}
		out[i] = math.Max(-1, math.Min(1, s))
	}
	return out
}

// observedNote appends to reason the reported sentiments and the update
// that made the recorded ones, e.g. "so [S_O 0.8 -0.2; S_i = 0.3·S_O +
// 0.7·S_i(t−1)]".
func observedNote(reason string, so []float64, alpha float64) string {
	vals := make([]string, len(so))
	for i, s := range so {
		vals[i] = strconv.FormatFloat(s, 'g', -1, 64)
	}
	note := fmt.Sprintf("%s%s; S_i = %s·S_O + %s·S_i(t−1)]", observedTag, strings.Join(vals, " "),
		strconv.FormatFloat(alpha, 'g', -1, 64), strconv.FormatFloat(1-alpha, 'g', -1, 64))
	return strings.TrimSpace(reason + " " + note)
}

// ObservedSentiment reads back, from a panel judge's survey reason, the
// sentiments S_O the model reported before the update; ok is false when
// the reason holds none (e.g. an offline evaluator's answer).
func ObservedSentiment(reason string) (so []float64, ok bool) {
	i := strings.LastIndex(reason, observedTag)
	if i < 0 {
		return nil, false
	}
	rest := reason[i+len(observedTag):]
	j := strings.Index(rest, ";")
	if j < 0 {
		return nil, false
	}
	for _, f := range strings.Fields(rest[:j]) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, false
		}
		so = append(so, x)
	}
	return so, len(so) > 0
}
