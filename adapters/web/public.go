package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// ParsePublicURL checks a public address for Config.PublicURL: an http or
// https URL of a host, at its root (the pages' links are absolute paths),
// with no query, fragment or credentials. It returns it with a trailing
// slash.
func ParsePublicURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return nil, fmt.Errorf("not a URL: %w", err)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%q: want an http:// or https:// address, e.g. https://class.example.org/", s)
	case u.Host == "":
		return nil, fmt.Errorf("%q has no host", s)
	case u.Path != "" && u.Path != "/":
		return nil, fmt.Errorf("%q has a path: the web channel must be served at the root of its host", s)
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return nil, fmt.Errorf("%q: want only a scheme and a host", s)
	}
	u.Path = "/"
	return u, nil
}

// publicBase is the address links are built from, with a trailing slash:
// the public URL, else the listening address ("" until Run listens).
func (p *Platform) publicBase() string {
	if p.public != nil {
		return p.public.String()
	}
	return p.URL()
}

// PublicURL returns the address people open the web channel at: the
// configured public URL, else the listening address (empty until Run
// listens).
func (p *Platform) PublicURL() string { return p.publicBase() }

// isPublicHost reports whether host (with or without its port) is the
// public URL's.
func (p *Platform) isPublicHost(host string) bool {
	return p.public != nil && (strings.EqualFold(host, p.public.Host) || strings.EqualFold(host, p.public.Hostname()))
}

// secureCookies reports whether cookies are sent over TLS only: when the
// public address is https.
func (p *Platform) secureCookies() bool { return p.public != nil && p.public.Scheme == "https" }

// linkBase is the address a page's links are built from: the public URL,
// else the address the browser asked for (over http).
func (p *Platform) linkBase(r *http.Request) string {
	if p.public != nil {
		return p.public.String()
	}
	return "http://" + r.Host + "/"
}
