package store_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
)

func TestAnnotationSuite(t *testing.T) {
	roundtabletest.AnnotationSuite(t, func(t *testing.T) roundtable.AnnotationStore { return openTest(t, store.Options{}) })
}

func TestMemAnnotationSuite(t *testing.T) {
	roundtabletest.AnnotationSuite(t, func(*testing.T) roundtable.AnnotationStore { return &roundtabletest.MemAnnotations{} })
}

// Annotations live beside a table's log: storing them adds no event.
func TestAnnotationsStayOutOfTheLog(t *testing.T) {
	ctx := t.Context()
	path := t.TempDir() + "/rt.db"
	db, err := store.Open(path, store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	err = db.PutAnnotation(ctx, roundtable.Annotation{Table: "t1", Seq: 1, Instrument: "stance", Model: "m", Result: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Load(ctx, "t1"); err == nil {
		t.Fatal("the table has events after storing an annotation")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	all, err := ro.Annotations(ctx, "t1")
	if err != nil || len(all) != 1 {
		t.Fatalf("after reopening read-only: %v %v", all, err)
	}
}
