package recommend

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestFactorizeReducesErrorMonotonically(t *testing.T) {
	ds := loadSynthetic(t, 60, 80, 1)
	f := Factorize(ds.Train, NMFOptions{Rank: 5, Iterations: 60, Seed: 3})
	h := f.History
	if len(h) != 61 {
		t.Fatalf("history has %d entries, want 61", len(h))
	}
	for i := 1; i < len(h); i++ {
		if h[i] > h[i-1]*(1+1e-9) {
			t.Errorf("RMSE rose at iteration %d: %.6f -> %.6f", i, h[i-1], h[i])
		}
	}
	if h[len(h)-1] > 0.8*h[0] {
		t.Errorf("RMSE %.3f -> %.3f, want at least a 20%% reduction", h[0], h[len(h)-1])
	}
}

func TestFactorizeIsDeterministic(t *testing.T) {
	ds := loadSynthetic(t, 40, 50, 2)
	opt := NMFOptions{Rank: 4, Iterations: 20, Seed: 9}
	a := Factorize(ds.Train, opt)
	shuffled := slices.Clone(ds.Train)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	b := Factorize(shuffled, opt)
	if !slices.Equal(a.w, b.w) || !slices.Equal(a.h, b.h) || !slices.Equal(a.History, b.History) {
		t.Error("same ratings in another order gave other factors")
	}
	opt.Seed = 10
	if c := Factorize(ds.Train, opt); slices.Equal(a.w, c.w) {
		t.Error("another seed gave the same factors")
	}
}

func TestSimilarityRanksLikeMindedUsersFirst(t *testing.T) {
	var ratings []Rating
	for m := 1; m <= 10; m++ {
		likes, dislikes := 5, 1
		if m > 5 {
			likes, dislikes = 1, 5
		}
		ratings = append(ratings,
			Rating{User: 1, Movie: m, Rating: likes},
			Rating{User: 2, Movie: m, Rating: likes},
			Rating{User: 3, Movie: m, Rating: dislikes})
	}
	ratings = append(ratings, Rating{User: 4, Movie: 1, Rating: 4})
	f := Factorize(ratings, NMFOptions{Rank: 2, Iterations: 200})
	same, opposite := f.Similarity(1, 2), f.Similarity(1, 3)
	if same < 0.99 || opposite >= same-0.1 {
		t.Errorf("similarity(1,2) = %.3f, similarity(1,3) = %.3f; want like-minded users clearly first", same, opposite)
	}
	if s := f.Similarity(1, 99); s != 0 {
		t.Errorf("similarity to an unknown user = %v, want 0", s)
	}
	if p, ok := f.Predict(1, 1); !ok || p < 4.5 {
		t.Errorf("Predict(1, 1) = %.2f, %v; want near 5", p, ok)
	}
}

// BenchmarkFactorize runs the default factorisation on a 200 x 300 matrix
// with 5% of entries observed, a scaled-down MovieLens shape.
func BenchmarkFactorize(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	var ratings []Rating
	for u := 1; u <= 200; u++ {
		for m := 1; m <= 300; m++ {
			if rng.Float64() < 0.05 {
				ratings = append(ratings, Rating{User: u, Movie: m, Rating: 1 + rng.IntN(5)})
			}
		}
	}
	for b.Loop() {
		Factorize(ratings, NMFOptions{})
	}
}
