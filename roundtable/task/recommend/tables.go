package recommend

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// DefaultRows caps userHistory and movieHistory.
const DefaultRows = 20

// Tables are the three private tables of a case, rendered as compact text:
// a title line, a header line and rows, with cells separated by " | ".
type Tables struct {
	BasicInfo    string
	UserHistory  string
	MovieHistory string
}

// HistoryRow is a row of userHistory: one of the user's training ratings.
type HistoryRow struct {
	Movie  Movie
	Rating int
	Time   int64
}

// NeighbourRow is a row of movieHistory: another user's training rating of
// the movie, with that user's similarity to the target user and mean
// training rating.
type NeighbourRow struct {
	User       User
	Similarity float64
	Mean       float64
	Rating     int
	Time       int64
}

// Tables renders the three tables of c from the training split, with at
// most rows rows of history each (DefaultRows when rows <= 0).
func (ds *Dataset) Tables(f *Factors, c Case, rows int) Tables {
	if rows <= 0 {
		rows = DefaultRows
	}
	uh, nu := ds.UserHistory(c.User, c.Movie, rows)
	mh, nm := ds.MovieHistory(f, c.Movie, c.User, rows)
	return Tables{
		BasicInfo:    ds.basicInfo(c),
		UserHistory:  renderUserHistory(c.User, uh, nu),
		MovieHistory: renderMovieHistory(ds.Movies[c.Movie].Title, mh, nm),
	}
}

// UserHistory returns the user's training ratings of movies other than
// exclude, most recent first (ties by movie ID), at most limit of them, and
// how many there are in all.
func (ds *Dataset) UserHistory(user, exclude, limit int) ([]HistoryRow, int) {
	var rows []HistoryRow
	for _, r := range ds.Train {
		if r.User == user && r.Movie != exclude {
			rows = append(rows, HistoryRow{Movie: ds.Movies[r.Movie], Rating: r.Rating, Time: r.Time})
		}
	}
	slices.SortFunc(rows, func(a, b HistoryRow) int {
		return cmp.Or(cmp.Compare(b.Time, a.Time), cmp.Compare(a.Movie.ID, b.Movie.ID))
	})
	return rows[:min(limit, len(rows))], len(rows)
}

// MovieHistory returns the training ratings of movie by users other than
// exclude, the user most similar to exclude under f first (ties by user
// ID), at most limit of them, and how many there are in all.
func (ds *Dataset) MovieHistory(f *Factors, movie, exclude, limit int) ([]NeighbourRow, int) {
	means := userMeans(ds.Train)
	var rows []NeighbourRow
	for _, r := range ds.Train {
		if r.Movie == movie && r.User != exclude {
			rows = append(rows, NeighbourRow{
				User: ds.Users[r.User], Similarity: f.Similarity(exclude, r.User),
				Mean: means[r.User], Rating: r.Rating, Time: r.Time,
			})
		}
	}
	slices.SortFunc(rows, func(a, b NeighbourRow) int {
		return cmp.Or(cmp.Compare(b.Similarity, a.Similarity), cmp.Compare(a.User.ID, b.User.ID))
	})
	return rows[:min(limit, len(rows))], len(rows)
}

// userMeans returns each user's mean rating.
func userMeans(ratings []Rating) map[int]float64 {
	sum, n := map[int]float64{}, map[int]int{}
	for _, r := range ratings {
		sum[r.User] += float64(r.Rating)
		n[r.User]++
	}
	for u := range sum {
		sum[u] /= float64(n[u])
	}
	return sum
}

func (ds *Dataset) basicInfo(c Case) string {
	m, u := ds.Movies[c.Movie], ds.Users[c.User]
	var b strings.Builder
	b.WriteString("basicInfo: the target movie and the target user\n")
	b.WriteString("movie_id | title | release_date | genres\n")
	fmt.Fprintf(&b, "%d | %s | %s | %s\n", m.ID, m.Title, releaseDate(m), strings.Join(m.Genres, ", "))
	b.WriteString("user_id | age | gender | occupation | zip\n")
	fmt.Fprintf(&b, "%d | %d | %s | %s | %s\n", u.ID, u.Age, u.Gender, u.Occupation, u.Zip)
	return b.String()
}

func renderUserHistory(user int, rows []HistoryRow, total int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "userHistory: user %d's ratings of other movies, most recent first (%d of %d)\n", user, len(rows), total)
	b.WriteString("movie_id | title | genres | release_date | rating | rated_date\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%d | %s | %s | %s | %d | %s\n", r.Movie.ID, r.Movie.Title,
			strings.Join(r.Movie.Genres, ", "), releaseDate(r.Movie), r.Rating, day(r.Time))
	}
	return b.String()
}

func renderMovieHistory(title string, rows []NeighbourRow, total int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "movieHistory: other users' ratings of %s, most similar to the target user first (%d of %d)\n", title, len(rows), total)
	b.WriteString("user_id | user_pref_similarity | personal_average_score | age | gender | occupation | rated_date | rating\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%d | %s | %s | %d | %s | %s | %s | %d\n", r.User.ID,
			strconv.FormatFloat(r.Similarity, 'f', 2, 64), strconv.FormatFloat(r.Mean, 'f', 2, 64),
			r.User.Age, r.User.Gender, r.User.Occupation, day(r.Time), r.Rating)
	}
	return b.String()
}

func releaseDate(m Movie) string {
	if m.Released.IsZero() {
		return "unknown"
	}
	return m.Released.Format(time.DateOnly)
}

func day(unix int64) string { return time.Unix(unix, 0).UTC().Format(time.DateOnly) }
