package roundtable_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

func TestKeySetRecordsAndEncodes(t *testing.T) {
	var k roundtable.KeySet
	for i := range 500 {
		k.Add(fmt.Sprintf("discord:msg:%d", i))
	}
	k.Add("discord:msg:7") // again
	if k.Len() != 500 {
		t.Fatalf("%d keys, want 500", k.Len())
	}
	b, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	var back roundtable.KeySet
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for i := range 500 {
		if !back.Has(fmt.Sprintf("discord:msg:%d", i)) {
			t.Fatalf("key %d lost in %s", i, b)
		}
	}
	if back.Has("discord:msg:500") || back.Has("") {
		t.Error("a key never added is in the set")
	}
	for in, want := range map[string]string{`"AAAA"`: "8-byte", `7`: "key set", `"AAAAAAAAAA=="`: "8-byte",
		`"//////////8AAAAAAAAAAA=="`: "out of order"} {
		if err := json.Unmarshal([]byte(in), &back); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("decoding %s: %v; want an error about %q", in, err, want)
		}
	}
}

// TestStateReadsKeysEncodedAsAMap decodes a state written when keys were
// a map of key to seq.
func TestStateReadsKeysEncodedAsAMap(t *testing.T) {
	var s roundtable.State
	if err := json.Unmarshal([]byte(`{"id":"t1","seq":9,"keys":{"slack:join:t1":2,"discord:msg:t1:r1":4}}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.ID != "t1" || s.Seq != 9 || s.Keys.Len() != 2 || !s.Keys.Has("slack:join:t1") || !s.Keys.Has("discord:msg:t1:r1") {
		t.Fatalf("decoded %+v", s)
	}
}
