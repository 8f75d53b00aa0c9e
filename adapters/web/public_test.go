package web

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestPublicURLBuildsTheLinks: behind a TLS reverse proxy on the public
// URL, the host and join links are https links of the public host, that
// host is accepted as this server's (the proxy forwards it as Host and
// browsers send it as Origin) though the server listens on loopback,
// another host is still refused, and cookies are sent over TLS only.
func TestPublicURLBuildsTheLinks(t *testing.T) {
	s := newServerWith(t, Config{PublicURL: "https://class.example.org"})
	if got := s.p.HostURL(); !strings.HasPrefix(got, "https://class.example.org/host?k=") {
		t.Errorf("host link %s", got)
	}
	if got := s.p.PublicURL(); got != "https://class.example.org/" {
		t.Errorf("public URL %s", got)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	send := func(method, path, host string, hdr http.Header, body string, cookies []*http.Cookie) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		for k, v := range hdr {
			req.Header[k] = v
		}
		for _, c := range cookies {
			req.AddCookie(c)
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	if resp, _ := send("GET", "/", "evil.example", nil, "", nil); resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("Host evil.example: status %d, want it refused", resp.StatusCode)
	}
	form := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Origin": {"https://class.example.org"}}
	resp, body := send("POST", "/name", "class.example.org", form, url.Values{"name": {"Ann"}}.Encode(), nil)
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("name through the proxy: status %d: %s", resp.StatusCode, body)
	}
	cookies := resp.Cookies()
	if len(cookies) == 0 {
		t.Fatal("no cookie set")
	}
	for _, c := range cookies {
		if !c.Secure || !c.HttpOnly {
			t.Errorf("cookie %s: Secure %v HttpOnly %v, want both behind https", c.Name, c.Secure, c.HttpOnly)
		}
	}
	resp, _ = send("GET", "/r/"+s.room+"?k="+s.p.keys.token(purposeJoin, s.room), "class.example.org", nil, "", cookies)
	cookies = append(cookies, resp.Cookies()...)
	resp, body = send("GET", "/r/"+s.room, "class.example.org", nil, "", cookies)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("room page: status %d", resp.StatusCode)
	}
	if want := "https://class.example.org/r/" + s.room + "?k="; !strings.Contains(body, want) {
		t.Errorf("room page lacks the join link %s...", want)
	}
	if strings.Contains(body, "http://class.example.org") || strings.Contains(body, "http://127.0.0.1") {
		t.Error("room page carries an http:// link")
	}
}

// TestPublicURLIsChecked: a public URL is an http or https address of a
// host at its root.
func TestPublicURLIsChecked(t *testing.T) {
	for _, bad := range []string{"class.example.org", "ftp://class.example.org/", "https://", "https://class.example.org/rt/", "https://u:p@class.example.org/", "https://class.example.org/?a=1"} {
		if _, err := ParsePublicURL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	u, err := ParsePublicURL("https://class.example.org:8443")
	if err != nil || u.String() != "https://class.example.org:8443/" {
		t.Errorf("got %v, %v", u, err)
	}
}
