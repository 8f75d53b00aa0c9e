package analysis_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
)

func openStore(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "rt.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// tableLog appends a table with three messages over two rounds and
// returns its log as stored.
func tableLog(t *testing.T, db *store.DB) []roundtable.Event {
	t.Helper()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	evs := []roundtable.Event{
		{Table: "t1", Seq: 1, Time: at, Data: roundtable.TableCreated{Config: roundtable.Config{Title: "tax", Rounds: 2}}},
		{Table: "t1", Seq: 2, Time: at, Actor: "ann", Data: roundtable.MessagePosted{Round: 1, Text: "Taxes on the rich should rise."}},
		{Table: "t1", Seq: 3, Time: at, Actor: "bob", Data: roundtable.MessagePosted{Round: 1, Text: "I am not sure."}},
		{Table: "t1", Seq: 4, Time: at, Actor: "ann", Data: roundtable.MessagePosted{Round: 2, Text: "Fine, a little."}},
	}
	if err := db.Append(t.Context(), "t1", evs); err != nil {
		t.Fatal(err)
	}
	evs, err := db.Load(t.Context(), "t1")
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// Annotating a table's log twice asks the model only the first time; the
// annotations hold every sample and stay out of the log.
func TestCacheAsksNoModelTwice(t *testing.T) {
	srv := openaitest.NewServer(func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		if r.SchemaName == "opinion_presence" {
			return openaitest.JSON(map[string]string{"reasoning": "r", "label": "yes"})
		}
		return openaitest.JSON(map[string]string{"reasoning": "r", "label": "slightly agree (statement)"})
	})
	defer srv.Close()
	db := openStore(t)
	log := tableLog(t, db)
	in := analysis.Stance(stance.Classifier{Statement: "Taxes on the rich should rise.",
		Labeler: &label.Sampler{LLM: openai.New(openai.Config{Name: "judge", BaseURL: srv.URL(), Model: "fake"}), Endpoint: "judge", K: 3}})
	c := analysis.Cache{Store: db, Clock: roundtabletest.NewClock(time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC))}
	first, err := c.AnnotateLog(t.Context(), log, in)
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.Count(nil); n != 18 {
		t.Fatalf("%d requests for 3 messages, want 18 (3 presence + 3 signal each)", n)
	}
	again, err := c.AnnotateLog(t.Context(), log, in)
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.Count(nil); n != 18 {
		t.Fatalf("re-running asked the model again: %d requests", n)
	}
	if len(first) != 3 || len(again) != 3 || string(again[2].Result) != string(first[2].Result) {
		t.Fatalf("annotations differ between runs: %v / %v", first, again)
	}
	var r analysis.StanceResult
	if err := json.Unmarshal(first[0].Result, &r); err != nil || !r.Presence || r.Level != stance.SlightlyStatement || r.Votes["slightly agree (statement)"] != 3 {
		t.Fatalf("result %s (%v)", first[0].Result, err)
	}
	if len(first[0].Samples) != 2 || !strings.Contains(string(first[0].Samples[1]), `"endpoint":"judge"`) {
		t.Fatalf("samples not kept: %s", first[0].Samples)
	}
	if a := first[0]; a.Seq != 2 || a.Instrument != "stance" || a.Model != "judge" {
		t.Fatalf("key %v", a.Key())
	}
	if after, _ := db.Load(t.Context(), "t1"); len(after) != len(log) {
		t.Fatalf("the log grew from %d to %d events", len(log), len(after))
	}
}

// A model that is down leaves the annotation missing with the reason; the
// next run measures it again.
func TestCacheStoresMissingWithReason(t *testing.T) {
	var down atomic.Bool
	down.Store(true)
	srv := openaitest.NewServer(func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		if down.Load() {
			// An outage, not a refused key: a refused key opens the
			// endpoint's circuit breaker for good.
			return openaitest.Status(503, "model overloaded")
		}
		return openaitest.JSON(map[string]any{"reasoning": "r", "labels": []string{"Propose"}})
	})
	defer srv.Close()
	db := openStore(t)
	log := tableLog(t, db)
	in := analysis.Acts(actsModel(srv))
	c := analysis.Cache{Store: db}
	got, err := c.AnnotateLog(t.Context(), log, in)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Missing == "" || !strings.Contains(got[0].Missing, "model overloaded") || got[0].Result != nil {
		t.Fatalf("annotation %+v, want missing with the reason", got[0])
	}
	down.Store(false)
	got, err = c.AnnotateLog(t.Context(), log, in)
	if err != nil || got[0].Missing != "" || !strings.Contains(string(got[0].Result), "Propose") {
		t.Fatalf("second run: %+v %v", got[0], err)
	}
	stored, _ := db.Annotations(t.Context(), "t1")
	if len(stored) != 3 || stored[0].Missing != "" {
		t.Fatalf("stored %+v", stored)
	}
}
