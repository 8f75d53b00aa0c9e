package recommend

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSyntheticReproducesEveryQuirkOfTheRealFiles checks that the
// synthetic set has each trait of the real ml-100k files that a reader can
// trip on, and that Load reads them all.
func TestSyntheticReproducesEveryQuirkOfTheRealFiles(t *testing.T) {
	dir := t.TempDir()
	const users, items = 40, 300
	if err := WriteSynthetic(dir, users, items, 11); err != nil {
		t.Fatal(err)
	}
	raw := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	item := raw("u.item")
	ds, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("Latin-1 titles", func(t *testing.T) {
		if utf8.Valid(item) || !bytes.Contains(item, []byte{0xe9}) {
			t.Fatal("u.item is not Latin-1 with an é byte")
		}
		if !strings.Contains(ds.Movies[7].Title, "Café") {
			t.Errorf("movie 7 title %q, want Café decoded", ds.Movies[7].Title)
		}
	})
	t.Run("one- and two-digit days", func(t *testing.T) {
		one, two := 0, 0
		for _, line := range strings.Split(string(item), "\n") {
			f := strings.Split(line, "|")
			if len(f) < 3 || f[2] == "" {
				continue
			}
			switch strings.Index(f[2], "-") {
			case 1:
				one++
			case 2:
				two++
			}
		}
		if one == 0 || two == 0 {
			t.Fatalf("%d one-digit and %d two-digit release days; want both", one, two)
		}
		m := ds.Movies[7]
		if m.Released.IsZero() {
			t.Errorf("movie 7 has no release date")
		}
	})
	t.Run("the unknown movie", func(t *testing.T) {
		m := ds.Movies[267]
		if m.Title != "unknown" || !m.Released.IsZero() || m.IMDbURL != "" || strings.Join(m.Genres, ",") != "unknown" {
			t.Errorf("movie 267 = %+v, want unknown with no date, no URL, genre unknown", m)
		}
		if !bytes.Contains(item, []byte("\n267|unknown||||1|0|")) {
			t.Error("u.item lacks the real file's line shape for movie 267")
		}
	})
	t.Run("a title under two IDs", func(t *testing.T) {
		if ds.Movies[3].Title != ds.Movies[items].Title {
			t.Errorf("titles %q and %q, want the same", ds.Movies[3].Title, ds.Movies[items].Title)
		}
	})
	t.Run("titles with a trailing article", func(t *testing.T) {
		if !strings.Contains(ds.Movies[11].Title, ", The (") {
			t.Errorf("movie 11 title %q", ds.Movies[11].Title)
		}
	})
	t.Run("postcodes for zips", func(t *testing.T) {
		if z := ds.Users[9].Zip; len(z) != 5 || z[0] < 'A' || z[0] > 'Z' {
			t.Errorf("user 9 zip %q, want a postcode like T8H1N", z)
		}
	})
	t.Run("tab-separated ratings", func(t *testing.T) {
		if first := strings.SplitN(string(raw("u.data")), "\n", 2)[0]; strings.Count(first, "\t") != 3 {
			t.Errorf("u.data line %q", first)
		}
		if len(ds.Train)+len(ds.Test) != len(ds.All) {
			t.Errorf("split %d + %d != %d", len(ds.Train), len(ds.Test), len(ds.All))
		}
	})
	t.Run("u.genre, u.occupation and u.info", func(t *testing.T) {
		if !bytes.HasSuffix(raw("u.genre"), []byte("Western|18\n\n")) {
			t.Error("u.genre lacks the trailing blank line")
		}
		if len(ds.Occupations) != len(synthOccupations) {
			t.Errorf("occupations %v", ds.Occupations)
		}
		if !strings.HasPrefix(string(raw("u.info")), "40 users\n300 items\n") {
			t.Errorf("u.info %q", raw("u.info"))
		}
	})
}

func TestLoadChecksTheSmallFiles(t *testing.T) {
	for name, c := range map[string]struct{ file, body, want string }{
		"genre order": {"u.genre", "unknown|0\nComedy|1\n", `u.genre:2: genre "Comedy" with index 1 is not genre 1`},
		"genre count": {"u.genre", "unknown|0\n\n", "u.genre: 1 genres, want the 19"},
		"occupation":  {"u.occupation", "technician\n", `occupation "other" is not in u.occupation`},
		"info":        {"u.info", "2 users\n3 items\n", "u.info:2: says 3 items, but 2 were loaded"},
	} {
		t.Run(name, func(t *testing.T) {
			files := tinyFiles()
			files[c.file] = c.body
			_, err := Load(writeFiles(t, files))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Load error %v, want %q", err, c.want)
			}
		})
	}
}

// TestLoadReadsRealLineShapes feeds lines shaped exactly like the real
// file's trickiest ones (invented titles): a one-digit day and the
// "unknown" movie with its empty fields.
func TestLoadReadsRealLineShapes(t *testing.T) {
	files := tinyFiles()
	files["u.item"] += "3|Morning Call (1971)|4-Feb-1971||http://us.imdb.com/M/title-exact?Morning%20Call%20(1971)|0|0|0|0|0|0|0|0|1|0|0|0|0|0|0|0|0|0|0\n" +
		"4|unknown||||1|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0\n"
	ds, err := Load(writeFiles(t, files))
	if err != nil {
		t.Fatal(err)
	}
	if d := ds.Movies[3].Released; d.Day() != 4 || d.Month() != 2 || d.Year() != 1971 {
		t.Errorf("release %v, want 4 Feb 1971", d)
	}
	if m := ds.Movies[4]; m.Title != "unknown" || !m.Released.IsZero() || len(m.Genres) != 1 {
		t.Errorf("unknown movie %+v", m)
	}
}
