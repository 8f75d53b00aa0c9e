package opinion

import (
	"fmt"
	"strconv"
	"strings"
)

// Levels names the five stance levels from 2 down to -2 (docs/protocol.md#stance-and-its-auditing), as a persona's stance is written.
var Levels = map[string]float64{
	"strongly agree":    2,
	"slightly agree":    1,
	"neutral":           0,
	"slightly disagree": -1,
	"strongly disagree": -2,
	"strongly-agree":    2,
	"slightly-agree":    1,
	"slightly-disagree": -1,
	"strongly-disagree": -2,
}

// ParseStance reads a persona's stance: a number in -2..2 or a level name.
func ParseStance(s string) (float64, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if v < -2 || v > 2 {
			return 0, fmt.Errorf("stance %g is outside -2..2", v)
		}
		return v, nil
	}
	if v, ok := Levels[s]; ok {
		return v, nil
	}
	return 0, fmt.Errorf("stance %q is neither a number in -2..2 nor a level (strongly agree, slightly agree, neutral, slightly disagree, strongly disagree)", s)
}

// LevelName names the level nearest x.
func LevelName(x float64) string {
	switch Round(x) {
	case 2:
		return "strongly agree"
	case 1:
		return "slightly agree"
	case -1:
		return "slightly disagree"
	case -2:
		return "strongly disagree"
	}
	return "neutral"
}
