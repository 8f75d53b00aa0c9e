package sim

import (
	"encoding/json"
	"math"
)

// JSON cannot hold NaN or infinities; metrics that are undefined for a run
// (no proposals, nothing decided) are written as null.

func finite(x float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return x
}

// MarshalJSON writes undefined values as null.
func (s Stat) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"mean": finite(s.Mean), "se": finite(s.SE), "n": s.N})
}

// MarshalJSON writes undefined values as null.
func (m Measures) MarshalJSON() ([]byte, error) {
	out := map[string]any{}
	if len(m.Series) > 0 {
		series := map[string][]any{}
		for k, xs := range m.Series {
			for _, x := range xs {
				series[k] = append(series[k], finite(x))
			}
		}
		out["series"] = series
	}
	if len(m.Scalars) > 0 {
		sc := map[string]any{}
		for k, x := range m.Scalars {
			sc[k] = finite(x)
		}
		out["scalars"] = sc
	}
	return json.Marshal(out)
}
