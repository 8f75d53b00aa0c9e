package bot_test

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/bot"
)

// TestUnreadableFindsLoneSurrogatesAndBadBytes: a lone high or low
// surrogate escape, or a high one followed by something else, is named
// with its offset; pairs, escaped backslashes and text outside strings
// are fine.
func TestUnreadableFindsLoneSurrogatesAndBadBytes(t *testing.T) {
	for raw, want := range map[string]string{
		`{"text":"a\ud800"}`:            `\ud800 at offset 10`,
		`{"text":"\uDC00 low"}`:         `\uDC00 at offset 9`,
		`{"text":"\ud83d\u0041"}`:       `\ud83d at offset 9`,
		`{"text":"\ud83d\ude00 ok"}`:    ``,
		`{"text":"\\ud800 is text"}`:    ``,
		`{"text":"\"\\\ud800"}`:         `\ud800 at offset 13`,
		`{"a":"\u00e9\u200b","b":"ok"}`: ``,
		"{\"text\":\"caf\xe9\"}":        `not valid UTF-8 (first bad byte at offset 12)`,
		`{"text":"end\ud800`:            `\ud800 at offset 12`,
	} {
		got := bot.Unreadable([]byte(raw))
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("Unreadable(%s) = %q, want %q", raw, got, want)
		}
	}
}
