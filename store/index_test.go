package store_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
	"github.com/roundtable-ai/roundtable/store/storetest"
)

// TestIndexEntryIsRightWhateverTheCache appends a log event by event, with
// the index cache made stale (a wrong event count) before every third, and
// checks every entry against folding the whole log.
func TestIndexEntryIsRightWhateverTheCache(t *testing.T) {
	log := storetest.PlayedLog(t, 2)
	db := openTest(t, store.Options{NoSync: true})
	for i := range log {
		if i%3 == 1 {
			db.CacheIndexEntry("log", roundtable.Summary{ID: "log", Events: uint64(i) + 7, Title: "stale"})
		}
		if err := db.Append(t.Context(), "log", log[i:i+1]); err != nil {
			t.Fatal(err)
		}
		want := roundtable.Summarize(roundtable.Summary{}, log[:i+1])
		if got := mustTables(t, db)[0]; roundtabletest.MustJSON(t, got) != roundtabletest.MustJSON(t, want) {
			t.Fatalf("after event %d the index says\n%+v\nwant\n%+v", i+1, got, want)
		}
	}
}
