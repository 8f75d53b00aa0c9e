package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/web"
)

func TestStartRefusesATopicThatIsNotUTF8(t *testing.T) {
	e := newLiveEnv(t, web.Config{})
	ann := e.browser(t, "Ann")
	e.send(t, ann, "GET", e.p.HostURL(), nil)
	code, body := e.send(t, ann, "POST", "/start", url.Values{"nonce": {"n1"}, "topic": {"caf\xe9?"}, "rule": {"plurality"}})
	if code != http.StatusBadRequest || !strings.Contains(body, "The field &#34;topic&#34; is not valid UTF-8 (first bad byte at offset 3)") {
		t.Errorf("start with a Latin-1 topic: %d, want 400 naming the field: %s", code, body)
	}
	if _, lobby := e.send(t, ann, "GET", "/", nil); strings.Contains(lobby, "caf\xe9") {
		t.Errorf("the lobby shows the refused topic's bytes")
	}
}
