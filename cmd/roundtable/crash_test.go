package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// TestCrashResumesToSameOutput kills a child process running headless
// tables with SIGKILL at random moments. After every kill the database must
// open, pass bbolt's consistency check and hold gapless logs that replay;
// the re-run resumes, and in the end every table's output and metrics equal
// those of an uninterrupted run with the same seed.
func TestCrashResumesToSameOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns many processes")
	}
	args := func(dir string) []string {
		return []string{"sim", "--rule", "ranked", "--runs", "3", "--rounds", "6", "--seed", "9", "--out", dir, "--log-level", "debug", "--concurrency", "2"}
	}
	ref := t.TempDir()
	if code, _, errOut := run(t, "", args(ref)...); code != 0 {
		t.Fatalf("reference run: %s", errOut)
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), 7))
	kills := 0
	for attempt := 0; ; attempt++ {
		if attempt > 200 {
			t.Fatal("the run never finished")
		}
		done, err := runUntilKilled(t, args(dir), 1+rng.IntN(8))
		if err != nil {
			t.Fatal(err)
		}
		checkConsistent(t, filepath.Join(dir, "roundtable.db"))
		if done {
			break
		}
		kills++
	}
	if kills == 0 {
		t.Fatal("the child was never killed mid-run")
	}
	t.Logf("killed %d times", kills)
	want, got := readRuns(t, ref), readRuns(t, dir)
	for i := range want {
		if want[i].Table != got[i].Table || want[i].Measures != got[i].Measures || want[i].Output != got[i].Output {
			t.Errorf("run %d differs after crashes:\nwant %+v\ngot  %+v", i, want[i], got[i])
		}
	}
}

// runUntilKilled starts the child and kills it after it has closed n
// phases. It reports whether the child finished first.
func runUntilKilled(t *testing.T, args []string, n int) (bool, error) {
	enc, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(enc))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return false, err
	}
	if err := cmd.Start(); err != nil {
		return false, err
	}
	sc := bufio.NewScanner(stderr)
	for seen := 0; seen < n && sc.Scan(); {
		if strings.Contains(sc.Text(), "phase closed") {
			seen++
		}
	}
	_ = cmd.Process.Kill()
	for sc.Scan() {
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &exit) && !exit.Exited():
		return false, nil // killed
	}
	return false, fmt.Errorf("child failed: %v", err)
}

func checkConsistent(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		return // killed before it created the file
	}
	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Fatalf("bbolt check after kill: %v", err)
	}
	list, err := db.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		evs, err := db.Load(context.Background(), s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := roundtable.Replay(evs); err != nil {
			t.Fatalf("table %s does not replay after a kill: %v", s.ID, err)
		}
		if uint64(len(evs)) != s.Events {
			t.Fatalf("table %s: %d events but the index says %d", s.ID, len(evs), s.Events)
		}
	}
}

type runOutcome struct {
	Table    string
	Measures string
	Output   string
}

func readRuns(t *testing.T, dir string) []runOutcome {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Rules map[string]struct {
			Runs []struct {
				Table    string          `json:"table"`
				Measures json.RawMessage `json:"measures"`
			} `json:"runs"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(dir, "roundtable.db"), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out []runOutcome
	for _, r := range rep.Rules["ranked"].Runs {
		evs, err := db.Load(context.Background(), r.Table)
		if err != nil {
			t.Fatal(err)
		}
		s, err := roundtable.Replay(evs)
		if err != nil {
			t.Fatal(err)
		}
		o := runOutcome{Table: r.Table, Measures: string(r.Measures)}
		if s.Output != nil {
			o.Output = s.Output.Key
		}
		out = append(out, o)
	}
	return out
}
