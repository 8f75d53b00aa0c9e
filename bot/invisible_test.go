package bot_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/bot"
)

// TestVisibleDropsWhatClientsDoNotShow: zero-width characters, bidi
// controls, soft hyphens, fillers and stray tags go, wherever they are
// (here the 33-character marker Discord posts used to end with); joiners
// that join visible characters (an emoji sequence, Persian shaping) and
// a flag's tag sequence stay.
func TestVisibleDropsWhatClientsDoNotShow(t *testing.T) {
	for in, want := range map[string]string{
		"see https://x.org/path\u2060\u200d\u200b\u200c\u2060\u200d\u200b\u200c": "see https://x.org/path",
		"\ufeffTaxes\u00ad should\u200b rise":                                    "Taxes should rise",
		"evil \u202egnp.exe\u202c and \u2066isolated\u2069":                      "evil gnp.exe and isolated",
		"\u200e\u200fmarks\u061c":                                                "marks",
		"name\u3164\u115f":                                                       "name",
		"hidden\U000E0041\U000E0042 text\U000E0001":                              "hidden text",
		"\u200dlead and trail\u200c":                                             "lead and trail",
		"space \u200d after":                                                     "space  after",
		"coder 👩\u200d💻 here":                                                    "coder 👩\u200d💻 here",
		"می\u200cخواهم":                                                          "می\u200cخواهم",
		"flag 🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F!":    "flag 🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F!",
		"plain text, é and 😀\ufe0f":                                              "plain text, é and 😀\ufe0f",
	} {
		if got := bot.Visible(in); got != want {
			t.Errorf("Visible(%+q) = %+q, want %+q", in, got, want)
		}
	}
}

// TestStripCleansEverythingAPersonTyped: text, options, fields, values and
// the display name.
func TestStripCleansEverythingAPersonTyped(t *testing.T) {
	z := "\u200b"
	ev := &bot.Event{Text: "hi" + z, User: bot.User{Name: "Al" + z + "ice"}, Values: []string{"A" + z},
		Options: map[string]string{"text": "Go" + z}, Fields: map[string]string{"msg": z + "yes"}}
	ev.Strip()
	if ev.Text != "hi" || ev.User.Name != "Alice" || ev.Values[0] != "A" || ev.Options["text"] != "Go" || ev.Fields["msg"] != "yes" {
		t.Errorf("after Strip: %+v", ev)
	}
}
