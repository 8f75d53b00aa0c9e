package store_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

func TestPutAnnotationsStoresAllOrNothing(t *testing.T) {
	ctx := t.Context()
	db := openTest(t, store.Options{})
	ann := func(table string, seq uint64, result string) roundtable.Annotation {
		return roundtable.Annotation{Table: table, Seq: seq, Instrument: "readability", Model: "m", Result: []byte(result)}
	}
	if err := db.PutAnnotations(ctx, []roundtable.Annotation{ann("t1", 1, `{"words":1}`), ann("t1", 2, `{"words":2}`), ann("t2", 1, `{}`)}); err != nil {
		t.Fatal(err)
	}
	// A second batch replaces what is under the same key.
	if err := db.PutAnnotations(ctx, []roundtable.Annotation{ann("t1", 2, `{"words":3}`)}); err != nil {
		t.Fatal(err)
	}
	got, err := db.Annotations(ctx, "t1")
	if err != nil || len(got) != 2 || string(got[1].Result) != `{"words":3}` {
		t.Fatalf("t1: %+v %v", got, err)
	}
	bad := ann("t3", 1, `{}`)
	bad.Instrument = ""
	if err := db.PutAnnotations(ctx, []roundtable.Annotation{ann("t3", 2, `{}`), bad}); err == nil {
		t.Fatal("an annotation without an instrument was stored")
	}
	if got, err := db.Annotations(ctx, "t3"); err != nil || len(got) != 0 {
		t.Errorf("after a refused batch t3 has %d annotations (%v), want none", len(got), err)
	}
}
