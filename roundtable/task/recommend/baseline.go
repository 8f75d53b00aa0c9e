package recommend

import (
	"cmp"
	"slices"
)

// Predictor predicts ratings. Predictions are in [1, 5].
type Predictor interface {
	Predict(user, movie int) float64
}

// Constant predicts the same rating for everything.
type Constant float64

// Predict implements Predictor.
func (c Constant) Predict(user, movie int) float64 { return float64(c) }

// AlwaysFour is the paper's "always 4" baseline (4 is MovieLens' median
// rating).
const AlwaysFour Constant = 4

// DefaultNeighbours is the k of NewKNN when k <= 0.
const DefaultNeighbours = 30

// knnDamping is added to the sum of similarities, shrinking predictions
// backed by few neighbours toward the user's mean.
const knnDamping = 1.0

// KNN is user-based k-nearest-neighbour collaborative filtering over the
// NMF preference similarity: the user's mean training rating plus the
// similarity-weighted mean deviation, from their own means, of the k users
// most similar to the user among those who rated the movie in training.
// A user without training ratings starts from the global mean; the result
// is clamped to [1, 5]. A *KNN is immutable and safe for concurrent use.
type KNN struct {
	f      *Factors
	k      int
	global float64
	means  map[int]float64
	raters map[int][]Rating // training ratings by movie
}

// NewKNN builds the model from the dataset's training split and the
// factorisation f, using k neighbours (DefaultNeighbours when k <= 0).
func NewKNN(ds *Dataset, f *Factors, k int) *KNN {
	if k <= 0 {
		k = DefaultNeighbours
	}
	m := &KNN{f: f, k: k, global: 3, means: userMeans(ds.Train), raters: map[int][]Rating{}}
	var sum float64
	for _, r := range ds.Train {
		m.raters[r.Movie] = append(m.raters[r.Movie], r)
		sum += float64(r.Rating)
	}
	if len(ds.Train) > 0 {
		m.global = sum / float64(len(ds.Train))
	}
	return m
}

// Predict implements Predictor.
func (m *KNN) Predict(user, movie int) float64 {
	base, ok := m.means[user]
	if !ok {
		base = m.global
	}
	type neighbour struct {
		user int
		sim  float64
		dev  float64
	}
	var ns []neighbour
	for _, r := range m.raters[movie] {
		if r.User != user {
			ns = append(ns, neighbour{r.User, m.f.Similarity(user, r.User), float64(r.Rating) - m.means[r.User]})
		}
	}
	slices.SortFunc(ns, func(a, b neighbour) int {
		return cmp.Or(cmp.Compare(b.sim, a.sim), cmp.Compare(a.user, b.user))
	})
	var num, den float64
	for _, n := range ns[:min(m.k, len(ns))] {
		num += n.sim * n.dev
		den += n.sim
	}
	return min(5, max(1, base+num/(den+knnDamping)))
}

// Evaluate scores p on the cases.
func Evaluate(p Predictor, cases []Case) (mae, rmse float64) {
	pairs := make([]Pair, len(cases))
	for i, c := range cases {
		pairs[i] = Pair{Pred: p.Predict(c.User, c.Movie), Truth: float64(c.Rating)}
	}
	return MAE(pairs), RMSE(pairs)
}
