package recommend

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadSynthetic writes and loads a synthetic set.
func loadSynthetic(t testing.TB, users, items int, seed int64) *Dataset {
	t.Helper()
	dir := t.TempDir()
	if err := WriteSynthetic(dir, users, items, seed); err != nil {
		t.Fatal(err)
	}
	ds, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// tinyFiles is a valid two-user, two-movie set; u.item is Latin-1.
func tinyFiles() map[string]string {
	flags := "|0|0|0|1|1|1|0|0|0|0|0|0|0|0|0|0|0|0|0"
	ratings := "1\t1\t5\t874965758\r\n2\t1\t3\t876893171\n\n"
	return map[string]string{
		"u.user":  "1|24|M|technician|85711\n2|53|F|other|T8H1N\n",
		"u.item":  "1|Toy Story (1995)|01-Jan-1995||http://us.imdb.com/M/title-exact?Toy%20Story%20(1995)" + flags + "\n" + "2|Caf\xe9 Soci\xe9t\xe9 (1996)|||" + flags + "\n",
		"u.data":  ratings,
		"u1.base": ratings,
		"u1.test": "1\t2\t4\t875000000\n",
	}
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadReadsTinySet(t *testing.T) {
	ds, err := Load(writeFiles(t, tinyFiles()))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Users) != 2 || len(ds.Movies) != 2 || len(ds.All) != 2 || len(ds.Train) != 2 || len(ds.Test) != 1 {
		t.Fatalf("got %d users, %d movies, %d/%d/%d ratings", len(ds.Users), len(ds.Movies), len(ds.All), len(ds.Train), len(ds.Test))
	}
	toy := ds.Movies[1]
	if toy.Title != "Toy Story (1995)" || toy.Released.Year() != 1995 || strings.Join(toy.Genres, ",") != "Animation,Children's,Comedy" {
		t.Errorf("movie 1 = %+v", toy)
	}
	if got := ds.Movies[2]; got.Title != "Café Société (1996)" || !got.Released.IsZero() {
		t.Errorf("movie 2 = %q released %v, want the Latin-1 title decoded and no date", got.Title, got.Released)
	}
	if u := ds.Users[2]; u != (User{ID: 2, Age: 53, Gender: "F", Occupation: "other", Zip: "T8H1N"}) {
		t.Errorf("user 2 = %+v", u)
	}
	if r := ds.Train[0]; r != (Rating{User: 1, Movie: 1, Rating: 5, Time: 874965758}) {
		t.Errorf("first training rating = %+v", r)
	}
}

func TestLoadReportsMalformedLine(t *testing.T) {
	tests := []struct {
		name, file, line, want string
	}{
		{"user fields", "u.user", "3|20|M", "u.user:3: want 5 fields, got 3"},
		{"user id", "u.user", "x|20|M|writer|1", `u.user:3: user id "x" is not an integer`},
		{"user id zero", "u.user", "0|20|M|writer|1", "u.user:3: user id 0 is not positive"},
		{"age", "u.user", "3|old|M|writer|1", `u.user:3: age "old" is not an integer`},
		{"gender", "u.user", "3|20|X|writer|1", `u.user:3: gender "X" is not M or F`},
		{"duplicate user", "u.user", "2|20|M|writer|1", "u.user:3: duplicate user id 2"},
		{"item fields", "u.item", "3|x|y", "u.item:3: want 24 fields, got 3"},
		{"item date", "u.item", "3|X (1995)|1995-01-01||u" + strings.Repeat("|0", 19), `u.item:3: release date "1995-01-01" is not like 01-Jan-1995 or 4-Feb-1971`},
		{"genre flag", "u.item", "3|X (1995)|||u|0|2" + strings.Repeat("|0", 17), `u.item:3: genre flag 2 (Action) is "2", want 0 or 1`},
		{"duplicate item", "u.item", "1|X (1995)|||u" + strings.Repeat("|0", 19), "u.item:3: duplicate movie id 1"},
		{"rating fields", "u.data", "1\t1\t5", "u.data:4: want 4 fields, got 3"},
		{"rating spaces", "u1.base", "1 1 5 874965758", "u1.base:4: want 4 fields, got 1"},
		{"rating value", "u1.base", "1\t1\t6\t874965758", "u1.base:4: rating 6 is not in 1..5"},
		{"rating word", "u1.test", "1\t1\tfive\t874965758", `u1.test:2: rating "five" is not an integer`},
		{"timestamp", "u1.test", "1\t1\t5\tyesterday", `u1.test:2: timestamp "yesterday" is not an integer`},
		{"unknown user", "u.data", "9\t1\t5\t874965758", "u.data:4: user 9 is not in u.user"},
		{"unknown movie", "u1.base", "1\t9\t5\t874965758", "u1.base:4: movie 9 is not in u.item"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := tinyFiles()
			files[tt.file] += tt.line + "\n"
			_, err := Load(writeFiles(t, files))
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.HasSuffix(err.Error(), tt.want) {
				t.Fatalf("Load error = %v, want a *ParseError ending %q", err, tt.want)
			}
		})
	}
}

func TestLoadReportsMissingFile(t *testing.T) {
	files := tinyFiles()
	delete(files, "u1.test")
	_, err := Load(writeFiles(t, files))
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "u1.test") {
		t.Fatalf("Load error = %v, want not-exist naming u1.test", err)
	}
}

func TestWriteSyntheticIsDeterministicAndLoads(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := WriteSynthetic(dir, 30, 40, 7); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"u.user", "u.item", "u.data", "u1.base", "u1.test"} {
		x, _ := os.ReadFile(filepath.Join(a, name))
		y, _ := os.ReadFile(filepath.Join(b, name))
		if string(x) != string(y) || len(x) == 0 {
			t.Errorf("%s differs between runs or is empty", name)
		}
	}
	ds, err := Load(a)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Train)+len(ds.Test) != len(ds.All) || len(ds.Test) == 0 {
		t.Errorf("split %d + %d != %d", len(ds.Train), len(ds.Test), len(ds.All))
	}
	if title := ds.Movies[1].Title; !strings.HasPrefix(title, "Señor 1 (") {
		t.Errorf("movie 1 title = %q, want the Latin-1 round trip of Señor", title)
	}
	if err := WriteSynthetic(a, 1, 40, 7); err == nil {
		t.Error("WriteSynthetic accepted one user")
	}
}
