package opinion

import (
	"fmt"
	"math"
)

// Confirmation-bias levels of Opinion dynamics (none, weak, strong).
const (
	BiasNone   = "none"
	BiasWeak   = "weak"
	BiasStrong = "strong"
)

// BiasFactor is the offline analogue of a confirmation-bias instruction:
// the share of the usual influence that a belief at distance d (on the
// -2..2 scale, so 0..4) keeps. Decision: in the spirit of Lorenz et al.
// (2021), whom the paper follows, influence falls with disagreement:
// none keeps all of it; weak keeps 1 - d/8 (half at the far end of the
// scale); strong keeps (1 - d/4)^2 (nothing at the far end, a quarter at
// half the scale).
func BiasFactor(level string, d float64) (float64, error) {
	d = math.Min(math.Abs(d), 4)
	switch level {
	case "", BiasNone:
		return 1, nil
	case BiasWeak:
		return 1 - d/8, nil
	case BiasStrong:
		return (1 - d/4) * (1 - d/4), nil
	}
	return 0, fmt.Errorf("confirmation bias %q is not none, weak or strong", level)
}

// BiasInstruction is the confirmation-bias instruction a language-model
// persona is given at level ("" for none), or an error for a level that is
// not none, weak or strong.
func BiasInstruction(level string) (string, error) {
	switch level {
	case "", BiasNone:
		return "", nil
	case BiasWeak:
		return " You tend to give more weight to what agrees with your current belief than to what contradicts it.", nil
	case BiasStrong:
		return " You hold on to your current belief: you readily accept what confirms it and mostly dismiss what contradicts it.", nil
	}
	return "", fmt.Errorf("%q is not none, weak or strong", level)
}
