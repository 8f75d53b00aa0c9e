package store_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/store"
)

func TestBlobRecordsAppendWalkAndDrop(t *testing.T) {
	ctx := t.Context()
	db := openTest(t, store.Options{})
	var wg sync.WaitGroup
	for i := range 20 { // concurrent adds share batches
		wg.Go(func() {
			if err := db.AddBlob(ctx, "web/posts/r1", fmt.Sprintf("%03d", i), []byte{byte(i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if err := db.AddBlob(ctx, "web/posts/r2", "001", []byte("other")); err != nil {
		t.Fatal(err)
	}
	var keys []string
	err := db.EachBlob(ctx, "web/posts/r1", func(k string, v []byte) error {
		if want := fmt.Sprintf("%03d", v[0]); k != want {
			t.Errorf("key %s holds %d", k, v[0])
		}
		keys = append(keys, k)
		return nil
	})
	if err != nil || len(keys) != 20 || keys[0] != "000" || keys[19] != "019" {
		t.Fatalf("walk: %v, keys %v; want 000..019 in order", err, keys)
	}
	if err := db.DeleteBlob(ctx, "web/posts/r1", "000"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := db.GetBlob(ctx, "web/posts/r1", "000"); ok {
		t.Errorf("a deleted record is still there")
	}
	if err := db.DropBlobs(ctx, "web/posts/r1"); err != nil {
		t.Fatal(err)
	}
	if err := db.DropBlobs(ctx, "web/posts/absent"); err != nil {
		t.Errorf("dropping an absent namespace: %v", err)
	}
	n := 0
	_ = db.EachBlob(ctx, "web/posts/r1", func(string, []byte) error { n++; return nil })
	if v, ok, _ := db.GetBlob(ctx, "web/posts/r2", "001"); n != 0 || !ok || string(v) != "other" {
		t.Errorf("after the drop: %d records left in r1; r2 holds %q, %t", n, v, ok)
	}
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}
