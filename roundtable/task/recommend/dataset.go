package recommend

import (
	"sync"
	"time"
)

// Genres are the 19 MovieLens genres in the order of u.item's flag columns.
var Genres = [19]string{
	"unknown", "Action", "Adventure", "Animation", "Children's", "Comedy",
	"Crime", "Documentary", "Drama", "Fantasy", "Film-Noir", "Horror",
	"Musical", "Mystery", "Romance", "Sci-Fi", "Thriller", "War", "Western",
}

// User is a row of u.user.
type User struct {
	ID         int
	Age        int
	Gender     string // "M" or "F"
	Occupation string
	Zip        string
}

// Movie is a row of u.item.
type Movie struct {
	ID       int
	Title    string    // UTF-8, with the year as MovieLens writes it: "Toy Story (1995)"
	Released time.Time // zero when u.item leaves the date empty
	IMDbURL  string
	Genres   []string // names from Genres, in that order
}

// Rating is a row of u.data, u1.base or u1.test.
type Rating struct {
	User   int
	Movie  int
	Rating int   // 1..5
	Time   int64 // Unix seconds
}

// Dataset is MovieLens-100k in memory. Load fills it; its fields must not
// be modified afterwards, because Factors caches a factorisation of Train.
// A *Dataset is safe for concurrent use.
type Dataset struct {
	Users  map[int]User
	Movies map[int]Movie
	All    []Rating // u.data
	Train  []Rating // u1.base
	Test   []Rating // u1.test
	// Occupations are the names of u.occupation, if the file is there.
	Occupations []string

	genres []string // u.genre, if there, checked against Genres

	once    sync.Once
	factors *Factors
}

// Factors returns the factorisation of Train with default options,
// computing it on first use.
func (ds *Dataset) Factors() *Factors {
	ds.once.Do(func() { ds.factors = Factorize(ds.Train, NMFOptions{}) })
	return ds.factors
}
