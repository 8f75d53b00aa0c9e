package web

import (
	"regexp"
	"testing"
)

// TestTheRoomScriptsWordsAreAllInTheCatalogue: every sentence the room's
// script looks up by key is in scriptWords, and every entry is used, so
// the page never shows a bare key and the catalogue holds no dead words.
func TestTheRoomScriptsWordsAreAllInTheCatalogue(t *testing.T) {
	src, err := staticFS.ReadFile("static/room.js")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`W\('([A-Za-z.]*[A-Za-z])'`).FindAllStringSubmatch(string(src), -1) {
		used[m[1]] = true
		if _, ok := scriptWords[m[1]]; !ok {
			t.Errorf("room.js shows %q, which scriptWords lacks", m[1])
		}
	}
	// Keys built from a state's fields: W('turn.' + phase), W('status.' + status), plural(n, noun).
	dynamic := regexp.MustCompile(`^(turn\.|status\.(created|ended)$|round\.)`)
	for k := range scriptWords {
		if !used[k] && !dynamic.MatchString(k) {
			t.Errorf("scriptWords has %q, which room.js never shows", k)
		}
	}
}
