package recommend

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// loadExtras reads the small files of the archive that Load does not need
// but checks when present: u.genre (name|index, in Genres' order),
// u.occupation (one name a line; every user's occupation must be listed)
// and u.info ("943 users", "1682 items", "100000 ratings", matching what
// was loaded).
func (ds *Dataset) loadExtras(dir string) error {
	for _, s := range []struct {
		name string
		line func(string) error
		done func() error
	}{
		{"u.genre", ds.addGenre, ds.checkGenres},
		{"u.occupation", ds.addOccupation, ds.checkOccupations},
		{"u.info", ds.checkInfo, func() error { return nil }},
	} {
		err := eachLine(filepath.Join(dir, s.name), s.line)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil {
			err = s.done()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (ds *Dataset) addGenre(line string) error {
	f, err := fields(line, "|", 2)
	if err != nil {
		return err
	}
	i, err := integer("genre index", f[1])
	if err != nil {
		return err
	}
	if i != len(ds.genres) || i >= len(Genres) || f[0] != Genres[i] {
		return fmt.Errorf("genre %q with index %d is not genre %d of u.item's columns", f[0], i, len(ds.genres))
	}
	ds.genres = append(ds.genres, f[0])
	return nil
}

func (ds *Dataset) checkGenres() error {
	if len(ds.genres) != len(Genres) {
		return fmt.Errorf("u.genre: %d genres, want the %d columns of u.item", len(ds.genres), len(Genres))
	}
	return nil
}

func (ds *Dataset) addOccupation(line string) error {
	ds.Occupations = append(ds.Occupations, strings.TrimSpace(line))
	return nil
}

func (ds *Dataset) checkOccupations() error {
	for _, u := range ds.Users {
		if !slices.Contains(ds.Occupations, u.Occupation) {
			return fmt.Errorf("u.user: user %d's occupation %q is not in u.occupation", u.ID, u.Occupation)
		}
	}
	return nil
}

// checkInfo checks a line of u.info against what was loaded.
func (ds *Dataset) checkInfo(line string) error {
	var n int
	var what string
	if _, err := fmt.Sscanf(line, "%d %s", &n, &what); err != nil {
		return fmt.Errorf("want a count and users, items or ratings, got %q", line)
	}
	have := map[string]int{"users": len(ds.Users), "items": len(ds.Movies), "ratings": len(ds.All)}
	got, ok := have[what]
	if !ok {
		return fmt.Errorf("unknown count %q (want users, items or ratings)", what)
	}
	if got != n {
		return fmt.Errorf("says %d %s, but %d were loaded", n, what, got)
	}
	return nil
}
