package exchange

import (
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// ballotFixture is agent 1 of a K=2 asymmetric economy with candidates it
// values best to worst: c0 < c1 < c2 by construction below.
func ballotFixture(t *testing.T) (Strategy, []Allocation) {
	e := mustNew(t, 2, Asymmetric)
	return Strategy{Economy: e, Self: 0, Seed: 1}, []Allocation{
		{{20, 20}, {80, 80}}, // worst for agent 1
		{{50, 50}, {50, 50}},
		{{80, 20}, {20, 80}},
		{{90, 90}, {10, 10}}, // best
		{{90, 90}},           // invalid
	}
}

func TestChoose(t *testing.T) {
	s, c := ballotFixture(t)
	tests := []struct {
		name       string
		candidates []Allocation
		decision   Allocation
		want       int
	}{
		{"best for itself", c, nil, 3},
		{"skips invalid", []Allocation{c[4], c[1]}, nil, 1},
		{"abstains when none is valid", []Allocation{c[4]}, nil, -1},
		{"abstains on no candidates", nil, nil, -1},
		{"tie prefers the decision", []Allocation{c[1], {{50, 50}, {50, 50}}}, Allocation{{50, 50}, {50, 50.0000001}}, 0},
		{"tie otherwise lowest index", []Allocation{c[1], c[1]}, nil, 0},
	}
	for _, tt := range tests {
		if got := s.Choose(tt.candidates, tt.decision); got != tt.want {
			t.Errorf("%s: Choose = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestChooseTiePrefersDecision(t *testing.T) {
	s := Strategy{Economy: mustNew(t, 3, Asymmetric), Self: 0}
	x := Allocation{{50, 50, 50}, {50, 0, 50}, {0, 50, 0}}
	d := Allocation{{50, 50, 50}, {0, 50, 0}, {50, 0, 50}} // same bundle for agent 1
	if got := s.Choose([]Allocation{x, d}, d); got != 1 {
		t.Errorf("Choose = %d, want 1 (the decision in force)", got)
	}
	if got := s.Choose([]Allocation{x, d}, nil); got != 0 {
		t.Errorf("Choose without a decision = %d, want 0 (lowest index)", got)
	}
}

func TestScores(t *testing.T) {
	s, c := ballotFixture(t)
	got := s.Scores(c)
	if got[0] != 1 || got[3] != 5 || got[4] != 1 || !(got[1] > 1 && got[1] <= got[2] && got[2] < 5) {
		t.Errorf("Scores = %v, want 1 < .. < 5 by utility and 1 for the invalid one", got)
	}
	if got := s.Scores([]Allocation{c[1], c[1]}); !reflect.DeepEqual(got, []int{3, 3}) {
		t.Errorf("equal candidates scored %v, want 3 each", got)
	}
	if got := s.Scores(nil); len(got) != 0 {
		t.Errorf("Scores(nil) = %v", got)
	}
}

func TestRanking(t *testing.T) {
	s, c := ballotFixture(t)
	if got, want := s.Ranking(c), []int{3, 2, 1, 0, 4}; !reflect.DeepEqual(got, want) {
		t.Errorf("Ranking = %v, want %v", got, want)
	}
	if got, want := s.Ranking([]Allocation{c[0], c[1], c[0]}), []int{1, 0, 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("Ranking with a tie = %v, want %v", got, want)
	}
}

func TestPoints(t *testing.T) {
	s, c := ballotFixture(t)
	tests := []struct {
		name       string
		candidates []Allocation
		want       []int
	}{
		{"all to the better of two", []Allocation{c[0], c[3]}, []int{0, 2}},
		{"even when equal", []Allocation{c[1], c[1], c[1]}, []int{1, 1, 1}},
		{"invalid gets none", []Allocation{c[4], c[1], c[1]}, []int{0, 2, 1}},
		{"all invalid spread evenly", []Allocation{c[4], c[4]}, []int{1, 1}},
		{"none", nil, []int{}},
	}
	for _, tt := range tests {
		if got := s.Points(tt.candidates); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Points = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestPointsSumToCandidates(t *testing.T) {
	e := mustNew(t, 3, Asymmetric)
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 8).Draw(t, "n")
		candidates := make([]Allocation, n)
		for c := range candidates {
			candidates[c] = randomAllocation(t, e)
		}
		s := Strategy{Economy: e, Self: rapid.IntRange(0, 2).Draw(t, "self")}
		points, sum := s.Points(candidates), 0
		for _, p := range points {
			if p < 0 {
				t.Fatalf("negative points %v", points)
			}
			sum += p
		}
		if sum != n {
			t.Fatalf("points %v sum to %d, want %d", points, sum, n)
		}
		if n > 0 {
			// Points follow utility: nobody gets more than the candidate of
			// the highest utility (the ranking may put a near-tie first).
			v := s.values(candidates)
			top := 0
			for c := range v {
				if v[c] > v[top] {
					top = c
				}
			}
			for _, p := range points {
				if p > points[top] {
					t.Fatalf("points %v give more to another candidate than to the best, %d", points, top)
				}
			}
		}
	})
}

func TestApprove(t *testing.T) {
	s, c := ballotFixture(t)
	if got, want := s.Approve(c, nil), []int{1, 2, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("Approve without a decision = %v, want %v (at least the equal split)", got, want)
	}
	if got, want := s.Approve(c, c[2]), []int{2, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("Approve = %v, want %v", got, want)
	}
	if got := s.Approve(c[:1], c[3]); len(got) != 0 {
		t.Errorf("Approve = %v, want none", got)
	}
}
