package audit

import (
	"errors"
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// Hand computation: Σxy = 1·2 + 2·3 + 3·7 = 29, Σx² = 1 + 4 + 9 = 14,
// so b = 29/14.
func TestOLSOriginMatchesHandComputation(t *testing.T) {
	b, err := OLSOrigin([]float64{1, 2, 3}, []float64{2, 3, 7})
	if err != nil || !near(b, 29.0/14.0) {
		t.Fatalf("OLSOrigin = %v, %v; want 29/14", b, err)
	}
}

func TestOLSOriginNegativeXs(t *testing.T) {
	// Σxy = (−0.5)(−0.25) + (−1)(−0.3) = 0.125 + 0.3 = 0.425;
	// Σx² = 0.25 + 1 = 1.25; b = 0.34.
	b, err := OLSOrigin([]float64{-0.5, -1}, []float64{-0.25, -0.3})
	if err != nil || !near(b, 0.34) {
		t.Fatalf("OLSOrigin = %v, %v; want 0.34", b, err)
	}
}

func TestOLSOriginWithoutDataIsAnError(t *testing.T) {
	if _, err := OLSOrigin(nil, nil); !errors.Is(err, ErrNoData) {
		t.Fatalf("no points: err = %v", err)
	}
	if _, err := OLSOrigin([]float64{0, 0}, []float64{1, 2}); !errors.Is(err, ErrNoData) {
		t.Fatalf("all x zero: err = %v", err)
	}
	if _, err := OLSOrigin([]float64{1}, nil); err == nil {
		t.Fatal("lengths differ: no error")
	}
}

// Hand computation: 10 items, the raters agree on 7 (p_o = 0.7).
// Rater a: yes 6, no 4; rater b: yes 5, no 5.
// p_e = 0.6·0.5 + 0.4·0.5 = 0.5; kappa = (0.7 − 0.5) / 0.5 = 0.4.
func TestKappaMatchesHandComputation(t *testing.T) {
	a := []string{"y", "y", "y", "y", "y", "y", "n", "n", "n", "n"}
	b := []string{"y", "y", "y", "y", "n", "n", "y", "n", "n", "n"}
	k, err := Kappa(a, b)
	if err != nil || !near(k, 0.4) {
		t.Fatalf("Kappa = %v, %v; want 0.4", k, err)
	}
}

func TestKappaEdges(t *testing.T) {
	if k, _ := Kappa([]string{"a", "a"}, []string{"a", "a"}); k != 1 {
		t.Fatalf("perfect agreement on one label: kappa %v, want 1", k)
	}
	if k, _ := Kappa([]string{"a", "b"}, []string{"b", "a"}); !near(k, -1) {
		t.Fatalf("perfect disagreement: kappa %v, want -1", k)
	}
	if _, err := Kappa(nil, nil); !errors.Is(err, ErrNoData) {
		t.Fatalf("no items: err = %v", err)
	}
}

// R² of a line through the origin is uncentred: 1 − Σ(y − bx)²/Σy².
// Positive peers (1, 2), (2, 3), (3, 7): b = 29/14, residuals −1/14,
// −16/14, 11/14, Σ = 378/196, Σy² = 62, R² = 1 − 378/(196·62). Negative
// peers (−.5, −.25), (−1, −.3): b = .34, residuals −.08, .04, Σ = .008,
// Σy² = .1525, R² = 1 − .008/.1525.
func TestFitSlopesGivesTheUncentredR2(t *testing.T) {
	s := FitSlopes([]float64{1, 2, 3, -0.5, -1, 0}, []float64{2, 3, 7, -0.25, -0.3, 5})
	if math.Abs(s.Positive-29.0/14) > 1e-12 || math.Abs(s.R2Positive-(1-378.0/(196*62))) > 1e-12 {
		t.Errorf("positive: slope %v R² %v", s.Positive, s.R2Positive)
	}
	if math.Abs(s.Negative-0.34) > 1e-12 || math.Abs(s.R2Negative-(1-0.008/0.1525)) > 1e-12 {
		t.Errorf("negative: slope %v R² %v", s.Negative, s.R2Negative)
	}
	if n := FitSlopes(nil, nil); !math.IsNaN(n.Positive) || !math.IsNaN(n.R2Negative) {
		t.Errorf("no data: %+v", n)
	}
}
