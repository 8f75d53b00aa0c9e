package storetest

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

func testBindings(t *testing.T, b Backend) {
	ctx := t.Context()
	s := b.Open(t)
	lookup := func(key string) string {
		t.Helper()
		table, ok, err := s.Lookup(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return "<none>"
		}
		return table
	}
	if got := lookup("discord:1"); got != "<none>" {
		t.Errorf("Lookup before Bind = %s", got)
	}
	for _, b := range [][2]string{{"discord:1", "t1"}, {"slack:C1", "t2"}, {"discord:1", "t3"}} {
		if err := s.Bind(ctx, b[0], b[1]); err != nil {
			t.Fatal(err)
		}
	}
	if got := lookup("discord:1"); got != "t3" {
		t.Errorf("Lookup after rebinding = %s, want t3", got)
	}
	if err := s.Unbind(ctx, "discord:1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Unbind(ctx, "discord:1"); err != nil {
		t.Errorf("second Unbind: %v", err)
	}
	if got, other := lookup("discord:1"), lookup("slack:C1"); got != "<none>" || other != "t2" {
		t.Errorf("after Unbind: discord:1 → %s, slack:C1 → %s; want <none>, t2", got, other)
	}
	if err := s.Bind(ctx, "", "t1"); roundtable.ErrorCode(err) != roundtable.Invalid {
		t.Errorf("Bind with no key = %v, want code invalid", err)
	}
}

func testBlobs(t *testing.T, b Backend) {
	ctx := t.Context()
	s := b.Open(t)
	if _, ok, err := s.GetBlob(ctx, "discord", "posted:t1"); ok || err != nil {
		t.Errorf("GetBlob of an unknown namespace = %t, %v; want none", ok, err)
	}
	if err := s.PutBlob(ctx, "discord", "posted:t1", []byte(`["m1","m2"]`)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutBlob(ctx, "slack", "posted:t1", []byte("ts-1")); err != nil {
		t.Fatal(err)
	}
	v, ok, err := s.GetBlob(ctx, "discord", "posted:t1")
	if string(v) != `["m1","m2"]` || !ok || err != nil {
		t.Fatalf("GetBlob = %q, %t, %v", v, ok, err)
	}
	v[0] = 'X' // the caller owns the copy
	if v, _, _ := s.GetBlob(ctx, "discord", "posted:t1"); string(v) != `["m1","m2"]` {
		t.Errorf("GetBlob after changing an earlier result = %q", v)
	}
	if v, ok, _ := s.GetBlob(ctx, "slack", "posted:t1"); string(v) != "ts-1" || !ok {
		t.Errorf("namespaces mix: slack blob = %q, %t", v, ok)
	}
	if err := s.PutBlob(ctx, "", "k", nil); roundtable.ErrorCode(err) != roundtable.Invalid {
		t.Errorf("PutBlob with no namespace = %v, want code invalid", err)
	}
	// A namespace that is a prefix of another does not see its blobs.
	if err := s.PutBlobs(ctx, "web/posts/r1", map[string][]byte{"a": []byte("1")}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutBlobs(ctx, "web/posts/r10", map[string][]byte{"b": []byte("2")}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Blobs(ctx, "web/posts/r1", "")
	if err != nil || len(got) != 1 || string(got["a"]) != "1" {
		t.Errorf("Blobs(web/posts/r1) = %q, %v; want a only", got, err)
	}
}

func testBlobRecords(t *testing.T, b Backend) {
	ctx := t.Context()
	s := b.Open(t)
	var wg sync.WaitGroup
	for i := range 20 { // concurrent adds share batches
		wg.Go(func() {
			if err := s.AddBlob(ctx, "web/posts/r1", fmt.Sprintf("%03d", i), []byte{byte(i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if err := s.AddBlob(ctx, "web/posts/r2", "001", []byte("other")); err != nil {
		t.Fatal(err)
	}
	var keys []string
	err := s.EachBlob(ctx, "web/posts/r1", func(k string, v []byte) error {
		if want := fmt.Sprintf("%03d", v[0]); k != want {
			t.Errorf("key %s holds %d", k, v[0])
		}
		keys = append(keys, k)
		return nil
	})
	if err != nil || len(keys) != 20 || keys[0] != "000" || keys[19] != "019" {
		t.Fatalf("walk: %v, keys %v; want 000..019 in order", err, keys)
	}
	if err := s.DeleteBlob(ctx, "web/posts/r1", "000"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.GetBlob(ctx, "web/posts/r1", "000"); ok {
		t.Errorf("a deleted record is still there")
	}
	if err := s.DropBlobs(ctx, "web/posts/r1"); err != nil {
		t.Fatal(err)
	}
	if err := s.DropBlobs(ctx, "web/posts/absent"); err != nil {
		t.Errorf("dropping an absent namespace: %v", err)
	}
	n := 0
	_ = s.EachBlob(ctx, "web/posts/r1", func(string, []byte) error { n++; return nil })
	if v, ok, _ := s.GetBlob(ctx, "web/posts/r2", "001"); n != 0 || !ok || string(v) != "other" {
		t.Errorf("after the drop: %d records left in r1; r2 holds %q, %t", n, v, ok)
	}
	recs := []roundtable.Blob{{NS: "a", Key: "1", Value: []byte("x")}, {NS: "b", Key: "2", Value: []byte("y")}}
	if err := s.AddBlobs(ctx, recs); err != nil {
		t.Fatal(err)
	}
	if v, ok, _ := s.GetBlob(ctx, "b", "2"); !ok || string(v) != "y" {
		t.Errorf("AddBlobs: b/2 = %q, %t", v, ok)
	}
}

func testBlobRanges(t *testing.T, b Backend) {
	ctx := t.Context()
	s := b.Open(t)
	kv := map[string][]byte{}
	for _, k := range []string{"t1/intro", "t1/@delivered", "t1/r1/open", "t1/r10/open", "t1/r2/msg/3", "t1/r9/result", "t1/zz", "t10/intro", "t2/r1/open"} {
		kv[k] = []byte(k)
	}
	if err := s.PutBlobs(ctx, "posts", kv); err != nil {
		t.Fatal(err)
	}
	got, err := s.BlobRanges(ctx, "posts", [][2]string{{"t1/", "t1/r0"}, {"t1/r:", "t10"}, {"t1/r9/", "t1/r90"}, {"t1/r2/", "t1/r20"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"t1/@delivered", "t1/intro", "t1/r2/msg/3", "t1/r9/result", "t1/zz"}
	if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, want) {
		t.Errorf("keys %q, want %q", keys, want)
	}
	for k, v := range got {
		if string(v) != k {
			t.Errorf("%s holds %q", k, v)
		}
	}
	all, err := s.BlobRanges(ctx, "posts", [][2]string{{"t2/", ""}})
	if err != nil || len(all) != 1 {
		t.Errorf("an open range: %v, %d keys, want t2/r1/open", err, len(all))
	}
	none, err := s.BlobRanges(ctx, "nothing", [][2]string{{"", ""}})
	if err != nil || len(none) != 0 {
		t.Errorf("a namespace never written: %v, %v", err, none)
	}
	pre, err := s.Blobs(ctx, "posts", "t1/r1")
	if keys := slices.Sorted(maps.Keys(pre)); err != nil || !slices.Equal(keys, []string{"t1/r1/open", "t1/r10/open"}) {
		t.Errorf("Blobs(posts, t1/r1) = %q, %v", keys, err)
	}
}
