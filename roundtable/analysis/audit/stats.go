package audit

import (
	"errors"
	"math"
)

// ErrNoData is returned by the estimators when there is nothing to
// estimate from.
var ErrNoData = errors.New("audit: no data")

// OLSOrigin fits y = b·x by least squares through the origin:
// b = Σxy / Σx². It returns ErrNoData when there are no points or every x
// is zero. x and y must have the same length.
func OLSOrigin(x, y []float64) (float64, error) {
	if len(x) != len(y) {
		return 0, errors.New("audit: x and y differ in length")
	}
	var sxy, sxx float64
	for i := range x {
		sxy += x[i] * y[i]
		sxx += x[i] * x[i]
	}
	if sxx == 0 {
		return 0, ErrNoData
	}
	return sxy / sxx, nil
}

// Kappa is Cohen's kappa of two raters' labels of the same items:
// (p_o − p_e) / (1 − p_e), with p_o the observed agreement and p_e the
// agreement expected from each rater's label frequencies. Two raters who
// agree on every item and only ever use one label have p_e = 1; kappa is
// then defined as 1. It returns ErrNoData for no items.
func Kappa(a, b []string) (float64, error) {
	if len(a) != len(b) {
		return 0, errors.New("audit: the raters labelled different numbers of items")
	}
	n := float64(len(a))
	if n == 0 {
		return 0, ErrNoData
	}
	fa, fb := map[string]float64{}, map[string]float64{}
	agree := 0.0
	for i := range a {
		fa[a[i]]++
		fb[b[i]]++
		if a[i] == b[i] {
			agree++
		}
	}
	po := agree / n
	pe := 0.0
	for l, c := range fa {
		pe += (c / n) * (fb[l] / n)
	}
	if math.Abs(1-pe) < 1e-12 {
		if po == 1 {
			return 1, nil
		}
		return 0, nil
	}
	return (po - pe) / (1 - pe), nil
}
