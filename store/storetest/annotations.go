package storetest

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Annotations live beside a table's log: storing them adds no event.
func testAnnotationsApart(t *testing.T, b Backend) {
	ctx := t.Context()
	s := b.Open(t)
	err := s.PutAnnotation(ctx, roundtable.Annotation{Table: "t1", Seq: 1, Instrument: "stance", Model: "m", Result: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(ctx, "t1"); err == nil {
		t.Fatal("the table has events after storing an annotation")
	}
	s = b.Reopen(t, s, true)
	all, err := s.Annotations(ctx, "t1")
	if err != nil || len(all) != 1 {
		t.Fatalf("after reopening read-only: %v %v", all, err)
	}
}

func testPutAnnotations(t *testing.T, b Backend) {
	ctx := t.Context()
	s := b.Open(t)
	ann := func(table string, seq uint64, result string) roundtable.Annotation {
		return roundtable.Annotation{Table: table, Seq: seq, Instrument: "readability", Model: "m", Result: []byte(result)}
	}
	if err := s.PutAnnotations(ctx, []roundtable.Annotation{ann("t1", 1, `{"words":1}`), ann("t1", 2, `{"words":2}`), ann("t2", 1, `{}`)}); err != nil {
		t.Fatal(err)
	}
	// A second batch replaces what is under the same key.
	if err := s.PutAnnotations(ctx, []roundtable.Annotation{ann("t1", 2, `{"words":3}`)}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Annotations(ctx, "t1")
	if err != nil || len(got) != 2 || string(got[1].Result) != `{"words":3}` {
		t.Fatalf("t1: %+v %v", got, err)
	}
	bad := ann("t3", 1, `{}`)
	bad.Instrument = ""
	if err := s.PutAnnotations(ctx, []roundtable.Annotation{ann("t3", 2, `{}`), bad}); err == nil {
		t.Fatal("an annotation without an instrument was stored")
	}
	if got, err := s.Annotations(ctx, "t3"); err != nil || len(got) != 0 {
		t.Errorf("after a refused batch t3 has %d annotations (%v), want none", len(got), err)
	}
}
