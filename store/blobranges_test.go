package store_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/roundtable-ai/roundtable/store"
)

func TestBlobRangesReadsOnlyTheRanges(t *testing.T) {
	ctx := t.Context()
	db := openTest(t, store.Options{})
	kv := map[string][]byte{}
	for _, k := range []string{"t1/intro", "t1/@delivered", "t1/r1/open", "t1/r10/open", "t1/r2/msg/3", "t1/r9/result", "t1/zz", "t10/intro", "t2/r1/open"} {
		kv[k] = []byte(k)
	}
	if err := db.PutBlobs(ctx, "posts", kv); err != nil {
		t.Fatal(err)
	}
	got, err := db.BlobRanges(ctx, "posts", [][2]string{{"t1/", "t1/r0"}, {"t1/r:", "t10"}, {"t1/r9/", "t1/r90"}, {"t1/r2/", "t1/r20"}})
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
	all, err := db.BlobRanges(ctx, "posts", [][2]string{{"t2/", ""}})
	if err != nil || len(all) != 1 {
		t.Errorf("an open range: %v, %d keys, want t2/r1/open", err, len(all))
	}
	none, err := db.BlobRanges(ctx, "nothing", [][2]string{{"", ""}})
	if err != nil || len(none) != 0 {
		t.Errorf("a namespace never written: %v, %v", err, none)
	}
}
