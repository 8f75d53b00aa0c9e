package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCommandsReadAroundDamagedPages runs a sim, then zeroes each page of
// its database in turn, as the outside check did, and runs tables and
// export on the copy, and analyze on the first page of a table's log
// (analyze is slow), in process: a panic fails the test binary
// (store's TestDamagedPagesGiveErrorsNotPanics also scrambles each page).
// A command that fails says that the database is damaged and names the
// file or a table; tables lists every table, as read or as damaged; and
// when the page holds one table's events only, every other table is
// listed undamaged and exported whole, and analyze analyzes the others
// and fails naming the damaged one.
func TestCommandsReadAroundDamagedPages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the commands on every page of a database")
	}
	dir := t.TempDir()
	if code, _, errOut := run(t, "", "sim", "--rule", "plurality", "--runs", "4", "--rounds", "3", "--out", dir); code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errOut)
	}
	pristine, err := os.ReadFile(filepath.Join(dir, "roundtable.db"))
	if err != nil {
		t.Fatal(err)
	}
	_, list, _ := run(t, "", "tables", "--db", filepath.Join(dir, "roundtable.db"))
	ids := tableIDsOf(list)
	_, whole, _ := run(t, "", "export", "--db", filepath.Join(dir, "roundtable.db"))
	if len(ids) != 4 {
		t.Fatalf("the sim wrote tables %v, want 4", ids)
	}
	size := os.Getpagesize()
	owned := 0
	for page := range len(pristine) / size {
		orig := pristine[page*size : (page+1)*size]
		if !slices.ContainsFunc(orig, func(b byte) bool { return b != 0 }) {
			continue // past the file's high-water mark: no reader goes there
		}
		own := pageOwner(orig, ids)
		if own != "" {
			owned++
		}
		damaged := bytes.Clone(pristine)
		clear(damaged[page*size : (page+1)*size])
		db := filepath.Join(t.TempDir(), "damaged.db")
		if err := os.WriteFile(db, damaged, 0o600); err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("page %d", page)
		tablesAndExport(t, name, db, own, ids, whole)
		if own != "" && owned == 1 {
			code, out, errOut := run(t, "", "analyze", "--db", db, "--out", t.TempDir())
			checkDamageError(t, name+": analyze", code, errOut, db, ids)
			if want := fmt.Sprintf("%d tables analyzed", len(ids)-1); code == 0 || !strings.Contains(out, want) || !strings.Contains(errOut, own) {
				t.Errorf("%s: analyze of a file whose page is table %s's: exit %d, want %q and an error naming %s:\n%s%s", name, own, code, want, own, out, errOut)
			}
		}
	}
	if owned < len(ids) {
		t.Errorf("only %d pages hold one table's events: the run is too small to tell", owned)
	}
}

// tablesAndExport runs tables and export on db, whose damaged page is
// table own's (none: ""): every table is listed or the file reported
// damaged, and the tables but own are listed undamaged and exported as
// whole (in the export of the undamaged file).
func tablesAndExport(t *testing.T, name, db, own string, ids []string, whole string) {
	t.Helper()
	code, out, errOut := run(t, "", "tables", "--db", db)
	checkDamageError(t, name+": tables", code, errOut, db, ids)
	for _, id := range ids {
		listed := strings.Contains(out, id+" ")
		undamaged := listed && !strings.Contains(lineOf(out, id), "damaged")
		switch {
		case !listed && !strings.Contains(errOut, db):
			t.Errorf("%s: tables neither lists table %s nor reports the file damaged:\n%s%s", name, id, out, errOut)
		case own != "" && id != own && !undamaged:
			t.Errorf("%s: the page is table %s's, but tables does not list table %s undamaged:\n%s%s", name, own, id, out, errOut)
		}
	}
	code, out, errOut = run(t, "", "export", "--db", db)
	checkDamageError(t, name+": export", code, errOut, db, ids)
	for _, id := range ids {
		if own != "" && id != own && strings.Count(out, `"table":"`+id+`"`) != strings.Count(whole, `"table":"`+id+`"`) {
			t.Errorf("%s: the page is table %s's, but table %s is not exported whole: %s", name, own, id, errOut)
		}
	}
}

// checkDamageError checks that a command that failed on a damaged file
// said so, naming the file or a table.
func checkDamageError(t *testing.T, what string, code int, errOut, db string, ids []string) {
	t.Helper()
	if code == 0 {
		return
	}
	names := strings.Contains(errOut, db) || slices.ContainsFunc(ids, func(id string) bool { return strings.Contains(errOut, id) })
	if !strings.Contains(errOut, "damaged") || !names {
		t.Errorf("%s: exit %d with an error that does not name the damage: %s", what, code, errOut)
	}
}

// tableIDsOf reads the table IDs of the tables command's output.
func tableIDsOf(out string) []string {
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		ids = append(ids, strings.Fields(line)[0])
	}
	return ids
}

// lineOf returns the line of the tables output that lists id.
func lineOf(out, id string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, id+" ") {
			return line
		}
	}
	return ""
}

// pageOwner returns the table whose events page holds, when it holds
// one table's and names no other table: a page of that table's log.
func pageOwner(page []byte, ids []string) string {
	var own []string
	for _, id := range ids {
		if bytes.Contains(page, []byte(id)) {
			own = append(own, id)
		}
	}
	if len(own) == 1 && bytes.Contains(page, []byte(`"table":"`+own[0]+`"`)) {
		return own[0]
	}
	return ""
}
