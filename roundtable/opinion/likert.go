package opinion

// LikertDeviation is Conversational bias's one-shot baseline (section
// 4.1, Figure 2) for one answer: a strongly liberal persona (assigned 2,
// strongly agreeing with the statement) or a strongly conservative one
// (assigned -2, strongly agreeing with the complement) says how far it
// agrees with the statement of its own side, and the deviation is its
// distance from "strongly agree" on the five-point scale, 0 to 4. On the
// shared -2..2 scale of the statement, answer a gives 2 - a for the
// statement's side and 2 + a for the complement's. ok is false for other
// assigned levels, which the baseline does not ask.
func LikertDeviation(assigned, answer float64) (d float64, ok bool) {
	a := Round(answer)
	switch Round(assigned) {
	case 2:
		return 2 - a, true
	case -2:
		return 2 + a, true
	}
	return 0, false
}

// LikertScore is the baseline's score over repeated answers, -4..4: the
// mean deviation of the statement's side minus the mean deviation of the
// complement's, so 4 is a liberal persona answering in a strongly
// conservative manner and -4 the opposite. Decision: a side without
// answers counts 0 (it did not deviate), so one side alone still scores.
func LikertScore(statement, complement []float64) float64 {
	return mean0(statement) - mean0(complement)
}

func mean0(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return Bias(xs)
}
