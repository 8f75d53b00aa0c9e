package storetest

import (
	"errors"
	"slices"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
)

// fill stores a little of everything in s: two played tables (one with
// snapshots and archived rounds), annotations (one of a table without a
// log), bindings and blobs in namespaces that are prefixes of others.
func fill(t *testing.T, s Store) {
	t.Helper()
	ctx := t.Context()
	clock := newClock()
	for id, rounds := range map[string]int{"long": 12, "short/1": 1} {
		if _, err := roundtabletest.PlayTable(ctx, s, clock, id, rounds); err != nil {
			t.Fatal(err)
		}
	}
	as := []roundtable.Annotation{
		{Table: "long", Seq: 3, Instrument: "stance", Model: "m", Result: []byte(`{"s":1}`)},
		{Table: "long", Seq: 4, Instrument: "stance", Model: "m", Result: []byte(`{"s":2}`)},
		{Table: "gone", Seq: 1, Instrument: "readability", Model: "m", Result: []byte(`{}`)},
	}
	if err := s.PutAnnotations(ctx, as); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"discord:1": "long", "slack:C/2": "short/1"} {
		if err := s.Bind(ctx, k, v); err != nil {
			t.Fatal(err)
		}
	}
	for ns, kv := range map[string]map[string][]byte{
		"posts":         {"long/intro": []byte("1"), "long/r1/open": []byte("2")},
		"web/posts/r1":  {"0001": []byte("a")},
		"web/posts/r10": {"0001": []byte("b"), "0002": []byte("c")},
	} {
		if err := s.PutBlobs(ctx, ns, kv); err != nil {
			t.Fatal(err)
		}
	}
}

func testWalk(t *testing.T, b Backend) {
	ctx := t.Context()
	s := b.Open(t)
	fill(t, s)
	bound := map[string]string{}
	if err := s.Bindings(ctx, func(k, table string) error { bound[k] = table; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(bound) != 2 || bound["slack:C/2"] != "short/1" {
		t.Errorf("Bindings = %v", bound)
	}
	nss, err := s.BlobNamespaces(ctx)
	if want := []string{"posts", "web/posts/r1", "web/posts/r10"}; err != nil || !slices.Equal(nss, want) {
		t.Errorf("BlobNamespaces = %q, %v; want %q", nss, err, want)
	}
	anns, err := s.AnnotatedTables(ctx)
	if want := []string{"gone", "long"}; err != nil || !slices.Equal(anns, want) {
		t.Errorf("AnnotatedTables = %q, %v; want %q", anns, err, want)
	}
	stop := errors.New("stop")
	if err := s.Bindings(ctx, func(string, string) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("Bindings with a failing fn = %v, want its error", err)
	}
}

// testCopy copies a filled store into an empty one of the same kind, and
// checks that everything reads the same there, and that a second copy
// into it is refused unless resumed, when it changes nothing.
func testCopy(t *testing.T, b Backend) {
	ctx := t.Context()
	src, dst := b.Open(t), b.Open(t)
	fill(t, src)
	rep, err := store.Copy(ctx, dst, src, store.CopyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tables != 2 || rep.Snapshots != 1 || rep.Annotations != 3 || rep.Bindings != 2 || rep.Namespaces != 3 || rep.Blobs != 5 {
		t.Errorf("report %+v", rep)
	}
	sameStores(t, dst, src)
	if _, err := store.Copy(ctx, dst, src, store.CopyOptions{}); !errors.Is(err, store.ErrNotEmpty) {
		t.Errorf("a second copy = %v, want ErrNotEmpty", err)
	}
	rep, err = store.Copy(ctx, dst, src, store.CopyOptions{Resume: true})
	if err != nil || rep.Complete != 2 {
		t.Errorf("a resumed copy of a complete one: %+v, %v", rep, err)
	}
	sameStores(t, dst, src)
}

// sameStores fails t unless a and b hold the same tables, snapshots,
// archived rounds, annotations, bindings and blobs.
func sameStores(t *testing.T, a, b Store) {
	t.Helper()
	ctx := t.Context()
	sameJSON(t, "tables", mustTables(t, a), mustTables(t, b))
	for _, s := range mustTables(t, b) {
		sameJSON(t, "log of "+s.ID, mustLoad(t, a, s.ID), mustLoad(t, b, s.ID))
		sa, ea, errA := a.LoadSnapshot(ctx, s.ID)
		sb, eb, errB := b.LoadSnapshot(ctx, s.ID)
		if err := errors.Join(errA, errB); err != nil {
			t.Fatal(err)
		}
		sameJSON(t, "snapshot of "+s.ID, sa, sb)
		sameJSON(t, "events after the snapshot of "+s.ID, ea, eb)
		if sb != nil && sb.Round > 2 {
			ra, errA := a.LoadRounds(ctx, s.ID, 1, sb.Round-1)
			rb, errB := b.LoadRounds(ctx, s.ID, 1, sb.Round-1)
			if err := errors.Join(errA, errB); err != nil {
				t.Fatal(err)
			}
			sameJSON(t, "stored rounds of "+s.ID, ra, rb)
		}
	}
	for _, id := range []string{"long", "gone"} {
		aa, errA := a.Annotations(ctx, id)
		ab, errB := b.Annotations(ctx, id)
		if err := errors.Join(errA, errB); err != nil {
			t.Fatal(err)
		}
		sameJSON(t, "annotations of "+id, aa, ab)
	}
	for _, ns := range []string{"posts", "web/posts/r1", "web/posts/r10"} {
		ka, errA := a.Blobs(ctx, ns, "")
		kb, errB := b.Blobs(ctx, ns, "")
		if err := errors.Join(errA, errB); err != nil {
			t.Fatal(err)
		}
		sameJSON(t, "blobs of "+ns, ka, kb)
	}
}
