package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportOfAnEmptyFileSaysSo: --db naming an empty file (a database
// not written yet, a failed copy) is refused with what the file is, not
// with bbolt's "write ...: bad file descriptor" from trying to lay out a
// new database in a file opened read-only; nothing is written to it.
func TestExportOfAnEmptyFileSaysSo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"export", "--db", path}, {"tables", "--db", path}} {
		code, _, errOut := run(t, "", args...)
		if code != 1 || !strings.Contains(errOut, "is an empty file: it holds no tables") || strings.Contains(errOut, "bad file descriptor") {
			t.Errorf("%s: exit %d: %s", args[0], code, errOut)
		}
	}
	if info, err := os.Stat(path); err != nil || info.Size() != 0 {
		t.Errorf("the empty file was changed: %v %v", info, err)
	}
}
