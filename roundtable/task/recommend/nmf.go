package recommend

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// Defaults of NMFOptions.
const (
	DefaultRank       = 10
	DefaultIterations = 100
)

// NMFOptions configures Factorize. The zero value means the defaults and
// seed 0.
type NMFOptions struct {
	Rank       int   // latent dimensions; 0 means DefaultRank
	Iterations int   // multiplicative-update sweeps; 0 means DefaultIterations
	Seed       int64 // seeds the random initial factors
}

// Factors is a non-negative factorisation R ~ W H of a user x movie rating
// matrix. It is immutable and safe for concurrent use.
type Factors struct {
	Rank   int
	Users  []int // user IDs in ascending order: the rows of W
	Movies []int // movie IDs in ascending order: the columns of H
	// History holds the RMSE over the training ratings for the initial
	// factors and after each iteration; Lee–Seung updates never increase it
	// (up to rounding).
	History []float64

	user, movie map[int]int // ID to index
	w, h        []float64   // row-major: w[u*Rank+j], h[m*Rank+j]
}

// entry is an observed rating: idx[0] the user index, idx[1] the movie index.
type entry struct {
	idx [2]int
	r   float64
}

// nmfEpsilon keeps the update's denominator positive.
const nmfEpsilon = 1e-12

// Factorize runs masked Lee–Seung multiplicative updates: only observed
// ratings count, so the loss is the squared error over the given ratings,
// not over a matrix whose missing entries are zeros. Both factors start
// uniform in [0.5, 1.5) * sqrt(mean rating / rank), so W H starts near the
// mean rating. The result depends only on opt and the set of ratings, not
// on their order.
func Factorize(ratings []Rating, opt NMFOptions) *Factors {
	if opt.Rank <= 0 {
		opt.Rank = DefaultRank
	}
	if opt.Iterations <= 0 {
		opt.Iterations = DefaultIterations
	}
	f := &Factors{Rank: opt.Rank, user: map[int]int{}, movie: map[int]int{}}
	es := f.index(ratings)
	f.init(es, opt.Seed)
	num := make([]float64, max(len(f.w), len(f.h)))
	den := make([]float64, len(num))
	for range opt.Iterations {
		f.History = append(f.History, f.half(es, 0, f.w, f.h, num, den))
		f.half(es, 1, f.h, f.w, num, den)
	}
	f.History = append(f.History, f.rmse(es))
	return f
}

// index numbers users and movies in ID order and returns the observed
// entries sorted by user, then movie, so sums run in a fixed order.
func (f *Factors) index(ratings []Rating) []entry {
	for _, r := range ratings {
		f.user[r.User], f.movie[r.Movie] = 0, 0
	}
	f.Users, f.Movies = sortedKeys(f.user), sortedKeys(f.movie)
	for i, id := range f.Users {
		f.user[id] = i
	}
	for i, id := range f.Movies {
		f.movie[id] = i
	}
	es := make([]entry, len(ratings))
	for i, r := range ratings {
		es[i] = entry{idx: [2]int{f.user[r.User], f.movie[r.Movie]}, r: float64(r.Rating)}
	}
	slices.SortFunc(es, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.idx[0], b.idx[0]), cmp.Compare(a.idx[1], b.idx[1]), cmp.Compare(a.r, b.r))
	})
	return es
}

func sortedKeys(m map[int]int) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (f *Factors) init(es []entry, seed int64) {
	mean := 3.0
	if len(es) > 0 {
		var sum float64
		for _, e := range es {
			sum += e.r
		}
		mean = sum / float64(len(es))
	}
	scale := math.Sqrt(mean / float64(f.Rank))
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	f.w = make([]float64, len(f.Users)*f.Rank)
	f.h = make([]float64, len(f.Movies)*f.Rank)
	for _, x := range [][]float64{f.w, f.h} {
		for i := range x {
			x[i] = (0.5 + rng.Float64()) * scale
		}
	}
}

// half updates one factor: x is W (side 0) or H (side 1), y the other.
// x_j <- x_j * sum_obs r y_j / sum_obs (W H) y_j. It returns the training
// RMSE of the factors it started from.
func (f *Factors) half(es []entry, side int, x, y, num, den []float64) float64 {
	k := f.Rank
	clear(num)
	clear(den)
	var sse float64
	for _, e := range es {
		a, b := e.idx[side]*k, e.idx[1-side]*k
		yb := y[b : b+k]
		p := dot(x[a:a+k], yb)
		sse += (e.r - p) * (e.r - p)
		na, da := num[a:a+k], den[a:a+k]
		for j, v := range yb {
			na[j] += e.r * v
			da[j] += p * v
		}
	}
	for i := range x {
		x[i] *= num[i] / (den[i] + nmfEpsilon)
	}
	return math.Sqrt(sse / float64(max(len(es), 1)))
}

func (f *Factors) rmse(es []entry) float64 {
	var sse float64
	for _, e := range es {
		p, _ := f.Predict(f.Users[e.idx[0]], f.Movies[e.idx[1]])
		sse += (e.r - p) * (e.r - p)
	}
	return math.Sqrt(sse / float64(max(len(es), 1)))
}

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// Predict returns the reconstructed rating (W H) of movie by user, false
// when either had no training rating.
func (f *Factors) Predict(user, movie int) (float64, bool) {
	u, ok1 := f.user[user]
	m, ok2 := f.movie[movie]
	if !ok1 || !ok2 {
		return 0, false
	}
	k := f.Rank
	return dot(f.w[u*k:(u+1)*k], f.h[m*k:(m+1)*k]), true
}

// Similarity is the preference similarity of two users: the cosine of
// their rows of W, in [0, 1] since the factors are non-negative. It is 0
// when either user had no training rating.
func (f *Factors) Similarity(a, b int) float64 {
	i, ok1 := f.user[a]
	j, ok2 := f.user[b]
	if !ok1 || !ok2 {
		return 0
	}
	k := f.Rank
	x, y := f.w[i*k:(i+1)*k], f.w[j*k:(j+1)*k]
	nx, ny := math.Sqrt(dot(x, x)), math.Sqrt(dot(y, y))
	if nx == 0 || ny == 0 {
		return 0
	}
	return dot(x, y) / (nx * ny)
}
