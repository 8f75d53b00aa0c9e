package storetest

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

func testReopen(t *testing.T, b Backend) {
	ctx := t.Context()
	s := b.Open(t)
	if _, err := roundtabletest.PlayTable(ctx, s, newClock(), "t1", 1); err != nil {
		t.Fatal(err)
	}
	if err := s.Bind(ctx, "discord:42", "t1"); err != nil {
		t.Fatal(err)
	}
	before, beforeSums := mustLoad(t, s, "t1"), mustTables(t, s)
	s = b.Reopen(t, s, true)
	sameJSON(t, "log after reopen", mustLoad(t, s, "t1"), before)
	sameJSON(t, "summaries after reopen", mustTables(t, s), beforeSums)
	if table, ok, err := s.Lookup(ctx, "discord:42"); table != "t1" || !ok || err != nil {
		t.Errorf("Lookup after reopen = %q, %t, %v; want t1", table, ok, err)
	}
	if err := s.Bind(ctx, "discord:43", "t1"); err == nil {
		t.Error("Bind on a read-only store succeeded")
	}
	if err := s.Append(ctx, "t1", []roundtable.Event{{Table: "t1", Seq: uint64(len(before)) + 1, Data: roundtable.MessagePosted{Text: "x"}}}); err == nil {
		t.Error("Append on a read-only store succeeded")
	}
}

func testLoadFrom(t *testing.T, b Backend) {
	ctx := t.Context()
	s := b.Open(t)
	if _, err := roundtabletest.PlayTable(ctx, s, newClock(), "t1", 1); err != nil {
		t.Fatal(err)
	}
	all := mustLoad(t, s, "t1")
	for _, from := range []uint64{0, 1, 5, uint64(len(all)), uint64(len(all)) + 1} {
		got, err := s.LoadFrom(ctx, "t1", from)
		if err != nil {
			t.Fatalf("LoadFrom(%d): %v", from, err)
		}
		want := all[min(max(from, 1)-1, uint64(len(all))):]
		if g, w := roundtabletest.MustJSON(t, got), roundtabletest.MustJSON(t, want); g != w {
			t.Errorf("LoadFrom(%d) returned %d events, want %d", from, len(got), len(want))
		}
	}
	if _, err := s.LoadFrom(ctx, "nope", 3); roundtable.ErrorCode(err) != roundtable.NotFound {
		t.Errorf("LoadFrom(unknown) = %v, want NotFound", err)
	}
}

func testAppendChecksTable(t *testing.T, b Backend) {
	s := b.Open(t)
	e := roundtable.Event{Table: "other", Seq: 1, Data: roundtable.TableCreated{}}
	err := s.Append(t.Context(), "t1", []roundtable.Event{e})
	if roundtable.ErrorCode(err) != roundtable.Invalid {
		t.Errorf("Append of another table's event = %v, want code invalid", err)
	}
}
