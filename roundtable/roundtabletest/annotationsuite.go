package roundtabletest

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// AnnotationSuite checks that a roundtable.AnnotationStore keeps its
// contract. open must return a new, empty store for each call and arrange
// its cleanup. Run it with -race.
func AnnotationSuite(t *testing.T, open func(t *testing.T) roundtable.AnnotationStore) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s roundtable.AnnotationStore)
	}{
		{"GetReturnsWhatWasPut", testAnnotationRoundTrip},
		{"PutReplacesSameKey", testAnnotationReplace},
		{"ListIsOrderedBySeqInstrumentModel", testAnnotationOrder},
		{"AbsentIsNotAnError", testAnnotationAbsent},
		{"BadKeyIsInvalid", testAnnotationInvalid},
		{"ConcurrentPutsLoseNothing", testAnnotationConcurrent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, open(t)) })
	}
}

func sampleAnnotation(table string, seq uint64, instrument, model string) roundtable.Annotation {
	return roundtable.Annotation{Table: table, Seq: seq, Instrument: instrument, Model: model,
		Samples: []json.RawMessage{json.RawMessage(`{"label":"yes"}`), json.RawMessage(`{"label":"no"}`)},
		Result:  json.RawMessage(`{"label":"yes"}`), Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func mustPut(t *testing.T, s roundtable.AnnotationStore, a roundtable.Annotation) {
	t.Helper()
	if err := s.PutAnnotation(t.Context(), a); err != nil {
		t.Fatalf("put %v: %v", a.Key(), err)
	}
}

func testAnnotationRoundTrip(t *testing.T, s roundtable.AnnotationStore) {
	want := sampleAnnotation("t1", 7, "stance", "fake-model")
	mustPut(t, s, want)
	got, ok, err := s.Annotation(t.Context(), want.Key())
	if err != nil || !ok {
		t.Fatalf("get: ok=%v err=%v", ok, err)
	}
	if g, w := mustMarshal(t, got), mustMarshal(t, want); g != w {
		t.Fatalf("got %s\nwant %s", g, w)
	}
}

func testAnnotationReplace(t *testing.T, s roundtable.AnnotationStore) {
	a := sampleAnnotation("t1", 3, "sentiment", "vader")
	mustPut(t, s, a)
	a.Result, a.Samples = json.RawMessage(`{"score":0.5}`), nil
	mustPut(t, s, a)
	all, err := s.Annotations(t.Context(), "t1")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 || string(all[0].Result) != `{"score":0.5}` {
		t.Fatalf("after replace: %+v", all)
	}
}

func testAnnotationOrder(t *testing.T, s roundtable.AnnotationStore) {
	puts := []roundtable.Annotation{
		sampleAnnotation("t1", 300, "a", "m"), sampleAnnotation("t1", 2, "stance", "m2"),
		sampleAnnotation("t1", 2, "stance", "m1"), sampleAnnotation("t1", 2, "readability", "m"),
		sampleAnnotation("t2", 1, "a", "m"),
	}
	for _, a := range puts {
		mustPut(t, s, a)
	}
	all, err := s.Annotations(t.Context(), "t1")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range all {
		got = append(got, fmt.Sprintf("%d/%s/%s", a.Seq, a.Instrument, a.Model))
	}
	want := "[2/readability/m 2/stance/m1 2/stance/m2 300/a/m]"
	if fmt.Sprint(got) != want {
		t.Fatalf("order %v, want %s", got, want)
	}
}

func testAnnotationAbsent(t *testing.T, s roundtable.AnnotationStore) {
	_, ok, err := s.Annotation(t.Context(), roundtable.AnnotationKey{Table: "none", Seq: 1, Instrument: "x", Model: "y"})
	if err != nil || ok {
		t.Fatalf("absent: ok=%v err=%v", ok, err)
	}
	all, err := s.Annotations(t.Context(), "none")
	if err != nil || len(all) != 0 {
		t.Fatalf("absent table: %v %v", all, err)
	}
}

func testAnnotationInvalid(t *testing.T, s roundtable.AnnotationStore) {
	for _, a := range []roundtable.Annotation{
		sampleAnnotation("", 1, "x", "y"), sampleAnnotation("t", 0, "x", "y"),
		sampleAnnotation("t", 1, "", "y"), sampleAnnotation("t", 1, "x", ""),
	} {
		var e *roundtable.Error
		if err := s.PutAnnotation(t.Context(), a); !errors.As(err, &e) || e.Code != roundtable.Invalid {
			t.Errorf("put %v: %v, want an Invalid error", a.Key(), err)
		}
	}
}

func testAnnotationConcurrent(t *testing.T, s roundtable.AnnotationStore) {
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Go(func() {
			errs <- s.PutAnnotation(t.Context(), sampleAnnotation(fmt.Sprintf("t%d", i%4), uint64(i+1), "stance", "m"))
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for i := range 4 {
		all, err := s.Annotations(t.Context(), fmt.Sprintf("t%d", i))
		if err != nil {
			t.Fatal(err)
		}
		n += len(all)
	}
	if n != 40 {
		t.Fatalf("stored %d annotations, want 40", n)
	}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
