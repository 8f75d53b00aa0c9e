package recommend

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// ParseError is a malformed line of a MovieLens file.
type ParseError struct {
	File string // base name: "u.item"
	Line int    // 1-based
	Msg  string
}

// Error implements error: "u.item:17: want 24 fields, got 3".
func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// releaseLayout is how u.item writes dates: "01-Jan-1995", and for one
// movie of the real file "4-Feb-1971" (Go's "2" reads one or two digits).
const releaseLayout = "2-Jan-2006"

// Load reads MovieLens-100k from dir: u.user, u.item, u.data, u1.base and
// u1.test, all required, then u.genre, u.occupation and u.info when they
// are there (they are in the real archive), checked against the rest. Every
// rating must name a known user and movie and be 1..5. A malformed line is
// reported as a *ParseError in the chain.
func Load(dir string) (*Dataset, error) {
	ds := &Dataset{Users: map[int]User{}, Movies: map[int]Movie{}}
	steps := []struct {
		name string
		line func(string) error
	}{
		{"u.user", ds.addUser},
		{"u.item", ds.addMovie},
		{"u.data", ds.ratingAdder(&ds.All)},
		{"u1.base", ds.ratingAdder(&ds.Train)},
		{"u1.test", ds.ratingAdder(&ds.Test)},
	}
	for _, s := range steps {
		if err := eachLine(filepath.Join(dir, s.name), s.line); err != nil {
			return nil, fmt.Errorf("load MovieLens: %w", err)
		}
	}
	if err := ds.loadExtras(dir); err != nil {
		return nil, fmt.Errorf("load MovieLens: %w", err)
	}
	return ds, nil
}

// eachLine calls fn with each non-empty line of the file, decoded from
// Latin-1 to UTF-8, and turns fn's errors into *ParseError.
func eachLine(path string, fn func(string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	name := filepath.Base(path)
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSuffix(latin1(sc.Bytes()), "\r")
		if line == "" {
			continue
		}
		if err := fn(line); err != nil {
			return &ParseError{File: name, Line: n, Msg: err.Error()}
		}
	}
	if err := sc.Err(); err != nil {
		return &ParseError{File: name, Line: n + 1, Msg: err.Error()}
	}
	return nil
}

// latin1 decodes ISO-8859-1, where every byte is the code point of the same
// value.
func latin1(b []byte) string {
	ascii := true
	for _, c := range b {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

// fields splits line on sep and checks the count.
func fields(line, sep string, want int) ([]string, error) {
	f := strings.Split(line, sep)
	if len(f) != want {
		return nil, fmt.Errorf("want %d fields, got %d", want, len(f))
	}
	return f, nil
}

// integer parses field s, named what in the error.
func integer(what, s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%s %q is not an integer", what, s)
	}
	return n, nil
}

// id parses a positive identifier.
func id(what, s string) (int, error) {
	n, err := integer(what, s)
	if err == nil && n <= 0 {
		err = fmt.Errorf("%s %d is not positive", what, n)
	}
	return n, err
}

func (ds *Dataset) addUser(line string) error {
	f, err := fields(line, "|", 5)
	if err != nil {
		return err
	}
	u := User{Occupation: f[3], Zip: f[4], Gender: f[2]}
	if u.ID, err = id("user id", f[0]); err != nil {
		return err
	}
	if u.Age, err = integer("age", f[1]); err != nil {
		return err
	}
	if u.Gender != "M" && u.Gender != "F" {
		return fmt.Errorf("gender %q is not M or F", u.Gender)
	}
	if _, dup := ds.Users[u.ID]; dup {
		return fmt.Errorf("duplicate user id %d", u.ID)
	}
	ds.Users[u.ID] = u
	return nil
}

func (ds *Dataset) addMovie(line string) error {
	f, err := fields(line, "|", 5+len(Genres))
	if err != nil {
		return err
	}
	m := Movie{Title: f[1], IMDbURL: f[4]}
	if m.ID, err = id("movie id", f[0]); err != nil {
		return err
	}
	if f[2] != "" {
		if m.Released, err = time.Parse(releaseLayout, f[2]); err != nil {
			return fmt.Errorf("release date %q is not like 01-Jan-1995 or 4-Feb-1971", f[2])
		}
	}
	for g, flag := range f[5:] {
		switch flag {
		case "1":
			m.Genres = append(m.Genres, Genres[g])
		case "0":
		default:
			return fmt.Errorf("genre flag %d (%s) is %q, want 0 or 1", g+1, Genres[g], flag)
		}
	}
	if _, dup := ds.Movies[m.ID]; dup {
		return fmt.Errorf("duplicate movie id %d", m.ID)
	}
	ds.Movies[m.ID] = m
	return nil
}

// ratingAdder returns a line parser that appends to *dst.
func (ds *Dataset) ratingAdder(dst *[]Rating) func(string) error {
	return func(line string) error {
		r, err := ds.parseRating(line)
		if err == nil {
			*dst = append(*dst, r)
		}
		return err
	}
}

func (ds *Dataset) parseRating(line string) (Rating, error) {
	f, err := fields(line, "\t", 4)
	if err != nil {
		return Rating{}, err
	}
	var r Rating
	if r.User, err = id("user id", f[0]); err != nil {
		return r, err
	}
	if r.Movie, err = id("movie id", f[1]); err != nil {
		return r, err
	}
	if r.Rating, err = integer("rating", f[2]); err != nil {
		return r, err
	}
	if r.Time, err = strconv.ParseInt(f[3], 10, 64); err != nil {
		return r, fmt.Errorf("timestamp %q is not an integer", f[3])
	}
	if r.Rating < 1 || r.Rating > 5 {
		return r, fmt.Errorf("rating %d is not in 1..5", r.Rating)
	}
	if _, ok := ds.Users[r.User]; !ok {
		return r, fmt.Errorf("user %d is not in u.user", r.User)
	}
	if _, ok := ds.Movies[r.Movie]; !ok {
		return r, fmt.Errorf("movie %d is not in u.item", r.Movie)
	}
	return r, nil
}
