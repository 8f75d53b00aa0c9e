package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// exportAll runs export of every table of the store args name, with the
// tables' audits, and returns both outputs.
func exportAll(t *testing.T, args ...string) (log, audit string) {
	t.Helper()
	auditFile := filepath.Join(t.TempDir(), "audit.jsonl")
	code, out, errOut := run(t, "", append(args, "export", "--audit", auditFile)...)
	if code != 0 {
		t.Fatalf("export %v: exit %d: %s", args, code, errOut)
	}
	b, err := os.ReadFile(auditFile)
	if err != nil {
		t.Fatal(err)
	}
	return out, string(b)
}

// TestMigrateSimToEtcdAndBack migrates an analyzed sim's database into
// etcd and back into a new file: export (logs and audits) reads the same
// from all three, a second migration is refused unless resumed, and a
// backup of etcd is a file that reads the same too.
func TestMigrateSimToEtcdAndBack(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := run(t, "", "sim", "--rule", "plurality", "--runs", "2", "--rounds", "16", "--out", dir); code != 0 {
		t.Fatalf("sim: exit %d %s", code, errOut)
	}
	file := filepath.Join(dir, "roundtable.db")
	if code, _, errOut := run(t, "", "analyze", "--db", file, "--out", t.TempDir()); code != 0 {
		t.Fatalf("analyze: exit %d %s", code, errOut)
	}
	wantLog, wantAudit := exportAll(t, "--db", file)
	if strings.Count(wantAudit, "\n") == 0 {
		t.Fatal("the analyzed sim has no annotations: the test would not check them")
	}
	cfg := etcdConfig(t, "")
	code, out, errOut := run(t, "", "--config", cfg, "migrate", "--from", file, "--to", "etcd")
	if code != 0 || !regexp.MustCompile(`copied 2 tables \(\d+ events, 2 snapshots\), \d+ annotations`).MatchString(out) {
		t.Fatalf("migrate into etcd (two tables long enough for a snapshot each): exit %d\n%s%s", code, out, errOut)
	}
	sameExport(t, "etcd", wantLog, wantAudit, "--config", cfg)
	if code, out, _ := run(t, "", "--config", cfg, "tables"); code != 0 || strings.Count(out, "\n") < 2 || strings.Contains(out, "damaged") {
		t.Errorf("tables on etcd: exit %d\n%s", code, out)
	}

	back := filepath.Join(t.TempDir(), "back.db")
	if code, out, errOut := run(t, "", "--config", cfg, "migrate", "--from", "etcd", "--to", back); code != 0 {
		t.Fatalf("migrate back: exit %d\n%s%s", code, out, errOut)
	}
	sameExport(t, "the file migrated back", wantLog, wantAudit, "--db", back)

	code, _, errOut = run(t, "", "--config", cfg, "migrate", "--from", file, "--to", "etcd")
	if code == 0 || !strings.Contains(errOut, "not empty") || !strings.Contains(errOut, "--resume") {
		t.Errorf("a second migration into etcd: exit %d, %s; want a refusal naming --resume", code, errOut)
	}
	code, out, errOut = run(t, "", "--config", cfg, "migrate", "--from", file, "--to", "etcd", "--resume")
	if code != 0 || !strings.Contains(out, "were there whole already") {
		t.Errorf("a resumed migration of a complete one: exit %d\n%s%s", code, out, errOut)
	}

	copyFile := filepath.Join(t.TempDir(), "copy.db")
	if code, out, errOut := run(t, "", "--config", cfg, "backup", copyFile); code != 0 || !strings.Contains(out, "wrote "+copyFile) {
		t.Fatalf("backup of etcd: exit %d\n%s%s", code, out, errOut)
	}
	sameExport(t, "the backup of etcd", wantLog, wantAudit, "--db", copyFile)
}

func sameExport(t *testing.T, what, wantLog, wantAudit string, args ...string) {
	t.Helper()
	log, audit := exportAll(t, args...)
	if log != wantLog {
		t.Errorf("export from %s differs from the sim's file (%d bytes, want %d)", what, len(log), len(wantLog))
	}
	if audit != wantAudit {
		t.Errorf("export --audit from %s differs from the sim's file (%d bytes, want %d)", what, len(audit), len(wantAudit))
	}
}

func TestMigrateUsage(t *testing.T) {
	file := filepath.Join(t.TempDir(), "rt.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"migrate", "--from", file}, "--from and --to are both required"},
		{[]string{"migrate", "--from", file, "--to", file}, "name the same store"},
		{[]string{"migrate", "--from", file, "--to", "etcd"}, "no such file"},
		{[]string{"migrate", "--from", "etcd", "--to", file}, `store.backend: is "bbolt"`},
	} {
		code, _, errOut := run(t, "", c.args...)
		if code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %s; want %q", c.args, code, errOut, c.want)
		}
	}
}
