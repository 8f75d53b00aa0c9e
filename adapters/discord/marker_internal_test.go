package discord

import (
	"testing"
	"unicode/utf8"
)

// TestMarkerIsInvisibleAndTellsPartsApart: a marker is markerLen
// zero-width characters, the same for the same key and part (a retry, a
// restart), and different for another part or key.
func TestMarkerIsInvisibleAndTellsPartsApart(t *testing.T) {
	m := markerFor("t1/r1/msg/7", 0)
	if n := utf8.RuneCountInString(m); n != markerLen {
		t.Errorf("marker of %d characters, want %d", n, markerLen)
	}
	for _, r := range m {
		if r != '\u2060' && r != markerDigits[0] && r != markerDigits[1] && r != markerDigits[2] && r != markerDigits[3] {
			t.Errorf("marker holds %U, which clients show", r)
		}
	}
	if markerFor("t1/r1/msg/7", 0) != m {
		t.Error("the same key and part give different markers")
	}
	if markerFor("t1/r1/msg/7", 1) == m || markerFor("t1/r1/msg/8", 0) == m {
		t.Error("another part or key gives the same marker")
	}
	if markerFor("", 0) != "" {
		t.Error("a post without a key is marked")
	}
}
