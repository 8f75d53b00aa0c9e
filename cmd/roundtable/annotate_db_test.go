package main

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/store"
)

// simDB runs a small headless table and returns its database.
func simDB(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if code, _, errOut := run(t, "", "sim", "--runs", "1", "--rounds", "2", "--rule", "plurality", "--out", dir); code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errOut)
	}
	return filepath.Join(dir, "roundtable.db")
}

// Annotating stored tables twice asks the model once per message; the
// annotations are stored beside the log, which does not change.
func TestAnnotateDBStoresAndReusesAnnotations(t *testing.T) {
	path := simDB(t)
	var down atomic.Bool
	down.Store(true)
	srv := openaitest.NewServer(func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		if down.Load() {
			return openaitest.Status(403, "model access denied")
		}
		return openaitest.JSON(map[string]any{"reasoning": "r", "labels": []string{"Propose"}})
	})
	defer srv.Close()
	args := []string{"annotate", "--db", path, "--instrument", "dialogue-acts", "--method", "llm", "--samples", "2",
		"--llm-base-url", srv.URL(), "--llm-model", "fake"}

	code, out, errOut := run(t, "", args...)
	if code != 1 || !strings.Contains(out, `"missing":"dialogue acts: label dialogue_acts with default:`) || !strings.Contains(errOut, "run again to retry them") {
		t.Fatalf("model down: exit %d, out %q, stderr %q", code, out, errOut)
	}
	down.Store(false)
	code, out, errOut = run(t, "", args...)
	if code != 0 || strings.Contains(out, "missing") || !strings.Contains(out, `"acts":["Propose"]`) {
		t.Fatalf("second run: exit %d, out %q, stderr %q", code, out, errOut)
	}
	lines := strings.Count(out, "\n")
	asked := srv.Count(nil)
	code, again, errOut := run(t, "", args...)
	if code != 0 || again != out || srv.Count(nil) != asked {
		t.Fatalf("third run asked %d more requests (exit %d, %s); output changed: %v", srv.Count(nil)-asked, code, errOut, again != out)
	}

	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sums, _ := db.Tables(t.Context())
	anns, err := db.Annotations(t.Context(), sums[0].ID)
	if err != nil || len(anns) != lines || len(anns[0].Samples) != 1 {
		t.Fatalf("stored %d annotations (want %d), err %v", len(anns), lines, err)
	}
	events, _ := db.Load(t.Context(), sums[0].ID)
	if uint64(len(events)) != sums[0].Events {
		t.Fatalf("the log has %d events, its summary %d", len(events), sums[0].Events)
	}
}

func TestAnnotateDBErrors(t *testing.T) {
	code, _, errOut := run(t, "", "annotate", "--instrument", "readability", "--table", "x")
	if code != 2 || !strings.Contains(errOut, "--table needs --db FILE") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, _, errOut = run(t, "", "annotate", "--instrument", "readability", "--db", filepath.Join(t.TempDir(), "none.db"))
	if code != 1 || !strings.Contains(errOut, "none.db") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, _, errOut = run(t, "", "annotate", "--instrument", "readability", "--db", simDB(t), "--table", "nope")
	if code != 1 || !strings.Contains(errOut, "table nope") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}
