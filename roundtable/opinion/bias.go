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
