package discord

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/bot"
)

// TestMarkTellsPartsApartAndComesBackOff: a mark is the same for the same
// key and part (a retry, a restart) and different for another part or
// key; it goes at the end of the control IDs it fits in, and an ID that
// comes back from Discord loses it.
func TestMarkTellsPartsApartAndComesBackOff(t *testing.T) {
	m := markFor("t1/r1/msg/7", 0)
	if markFor("t1/r1/msg/7", 0) != m {
		t.Error("the same key and part give different marks")
	}
	if markFor("t1/r1/msg/7", 1) == m || markFor("t1/r1/msg/8", 0) == m {
		t.Error("another part or key gives the same mark")
	}
	if markFor("", 0) != "" {
		t.Error("a post without a key is marked")
	}
	long := strings.Repeat("x", maxCustomID-3)
	got := marked([]bot.Control{{ID: "rt:t1:1:prop"}, {ID: long}}, m)
	if got[0].ID != "rt:t1:1:prop"+m || got[1].ID != long {
		t.Errorf("marked IDs %q, %q: want the first marked, the one without room as it was", got[0].ID, got[1].ID)
	}
	for _, id := range []string{got[0].ID, "rt:t1:1:prop", long, "rt:a~~b:1:join"} {
		want := strings.TrimSuffix(id, m)
		if u := unmarked(id); u != want {
			t.Errorf("unmarked(%q) = %q, want %q", id, u, want)
		}
	}
}
