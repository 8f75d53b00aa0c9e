package store_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

func TestBindings(t *testing.T) {
	ctx := t.Context()
	db := openTest(t, store.Options{NoSync: true})
	lookup := func(key string) string {
		t.Helper()
		table, ok, err := db.Lookup(ctx, key)
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
		if err := db.Bind(ctx, b[0], b[1]); err != nil {
			t.Fatal(err)
		}
	}
	if got := lookup("discord:1"); got != "t3" {
		t.Errorf("Lookup after rebinding = %s, want t3", got)
	}
	if err := db.Unbind(ctx, "discord:1"); err != nil {
		t.Fatal(err)
	}
	if err := db.Unbind(ctx, "discord:1"); err != nil {
		t.Errorf("second Unbind: %v", err)
	}
	if got, other := lookup("discord:1"), lookup("slack:C1"); got != "<none>" || other != "t2" {
		t.Errorf("after Unbind: discord:1 → %s, slack:C1 → %s; want <none>, t2", got, other)
	}
	if err := db.Bind(ctx, "", "t1"); roundtable.ErrorCode(err) != roundtable.Invalid {
		t.Errorf("Bind with no key = %v, want code invalid", err)
	}
}

func TestBlobs(t *testing.T) {
	ctx := t.Context()
	db := openTest(t, store.Options{NoSync: true})
	if _, ok, err := db.GetBlob(ctx, "discord", "posted:t1"); ok || err != nil {
		t.Errorf("GetBlob of an unknown namespace = %t, %v; want none", ok, err)
	}
	if err := db.PutBlob(ctx, "discord", "posted:t1", []byte(`["m1","m2"]`)); err != nil {
		t.Fatal(err)
	}
	if err := db.PutBlob(ctx, "slack", "posted:t1", []byte("ts-1")); err != nil {
		t.Fatal(err)
	}
	v, ok, err := db.GetBlob(ctx, "discord", "posted:t1")
	if string(v) != `["m1","m2"]` || !ok || err != nil {
		t.Fatalf("GetBlob = %q, %t, %v", v, ok, err)
	}
	v[0] = 'X' // the caller owns the copy
	if v, _, _ := db.GetBlob(ctx, "discord", "posted:t1"); string(v) != `["m1","m2"]` {
		t.Errorf("GetBlob after changing an earlier result = %q", v)
	}
	if v, ok, _ := db.GetBlob(ctx, "slack", "posted:t1"); string(v) != "ts-1" || !ok {
		t.Errorf("namespaces mix: slack blob = %q, %t", v, ok)
	}
	if err := db.PutBlob(ctx, "", "k", nil); roundtable.ErrorCode(err) != roundtable.Invalid {
		t.Errorf("PutBlob with no namespace = %v, want code invalid", err)
	}
}
