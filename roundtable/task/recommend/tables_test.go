package recommend

import (
	"strings"
	"testing"
)

func TestTablesRenderTinySet(t *testing.T) {
	ds, err := Load(writeFiles(t, tinyFiles()))
	if err != nil {
		t.Fatal(err)
	}
	got := ds.Tables(ds.Factors(), Case{User: 2, Movie: 1, Rating: 3}, 0)
	want := Tables{
		BasicInfo: `basicInfo: the target movie and the target user
movie_id | title | release_date | genres
1 | Toy Story (1995) | 1995-01-01 | Animation, Children's, Comedy
user_id | age | gender | occupation | zip
2 | 53 | F | other | T8H1N
`,
		UserHistory: `userHistory: user 2's ratings of other movies, most recent first (0 of 0)
movie_id | title | genres | release_date | rating | rated_date
`,
		MovieHistory: `movieHistory: other users' ratings of Toy Story (1995), most similar to the target user first (1 of 1)
user_id | user_pref_similarity | personal_average_score | age | gender | occupation | rated_date | rating
1 | 0.95 | 5.00 | 24 | M | technician | 1997-09-22 | 5
`,
	}
	if got != want {
		t.Errorf("tables:\n%s\n%s\n%s\nwant:\n%s\n%s\n%s", got.BasicInfo, got.UserHistory, got.MovieHistory, want.BasicInfo, want.UserHistory, want.MovieHistory)
	}
}

func TestHistoriesAreOrderedAndCapped(t *testing.T) {
	ds := loadSynthetic(t, 60, 80, 4)
	f := ds.Factors()
	c := Cases(ds, 1, 1)[0]
	uh, total := ds.UserHistory(c.User, c.Movie, 5)
	if len(uh) != min(5, total) || total == 0 {
		t.Fatalf("userHistory has %d of %d rows, want min(5, total)", len(uh), total)
	}
	for i, r := range uh {
		if r.Movie.ID == c.Movie || (i > 0 && r.Time > uh[i-1].Time) {
			t.Errorf("userHistory row %d = %+v: target movie or not most recent first", i, r)
		}
	}
	mh, total := ds.MovieHistory(f, c.Movie, c.User, 1000)
	if len(mh) != total {
		t.Fatalf("movieHistory has %d of %d rows with a large cap", len(mh), total)
	}
	for i, r := range mh {
		if r.User.ID == c.User || (i > 0 && r.Similarity > mh[i-1].Similarity) {
			t.Errorf("movieHistory row %d = %+v: target user or not most similar first", i, r)
		}
	}
	tables := ds.Tables(f, c, 3)
	if n := strings.Count(tables.UserHistory, "\n"); n != 2+min(3, len(uh)) {
		t.Errorf("userHistory with 3 rows has %d lines:\n%s", n, tables.UserHistory)
	}
}
