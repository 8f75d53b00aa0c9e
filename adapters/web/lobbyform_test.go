package web_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/web"
)

// TestFormErrorsSpeakThePagesWords: what the lobby refuses it says in the
// form's labels, not in chat options or command-line flags.
func TestFormErrorsSpeakThePagesWords(t *testing.T) {
	e := newLiveEnv(t, web.Config{})
	ann := e.browser(t, "Ann")
	e.send(t, ann, "GET", e.p.HostURL(), nil)
	for _, c := range []struct {
		what        string
		form        url.Values
		want, never string
	}{
		{"no topic", urlValues("nonce", "n1"), "Write what the table should decide, or choose a preset.", "topic:&lt;question&gt;"},
		{"a bad duration", urlValues("nonce", "n2", "topic", "Lunch?", "vote", "soon"), "Vote phase: &#34;soon&#34; is not a duration", "<p>vote:"},
		{"bad rounds", urlValues("nonce", "n3", "topic", "Lunch?", "rounds", "0"), "Rounds: &#34;0&#34; is not a number from 1 to 100", "<p>rounds:"},
		{"an unknown rule", urlValues("nonce", "n4", "topic", "Lunch?", "rule", "dictator"), "Voting rule: ", "<p>rule:"},
	} {
		code, body := e.send(t, ann, "POST", "/start", c.form)
		if code/100 != 4 || !strings.Contains(body, c.want) || strings.Contains(body, c.never) {
			t.Errorf("%s: %d; want a 4xx saying %q, never %q:\n%s", c.what, code, c.want, c.never, alertOf(body))
		}
	}
}

// alertOf is the error box of a page.
func alertOf(page string) string {
	i := strings.Index(page, `class="alert"`)
	if i < 0 {
		return "(no alert)"
	}
	j := strings.Index(page[i:], "</div>")
	return page[i : i+max(j, 0)]
}
