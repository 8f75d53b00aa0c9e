package web

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"
)

//go:embed static
var staticFS embed.FS

// csp allows the page's own scripts, styles and images only: no inline
// script, no framing, forms posting back here only.
const csp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

func (p *Platform) routes() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServer(http.FS(static))))
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/static/favicon.svg", http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET /{$}", p.serveLobby)
	mux.HandleFunc("GET /host", p.serveHost)
	mux.HandleFunc("POST /name", p.serveName)
	mux.HandleFunc("POST /start", p.serveStart)
	mux.HandleFunc("GET /live", p.serveLobbyLive)
	mux.HandleFunc("GET /api/rooms", p.serveRoomList)
	mux.HandleFunc("GET /c", p.serveCohortCode)
	mux.HandleFunc("GET /c/{code}", p.serveCohort)
	mux.HandleFunc("POST /c/{code}", p.serveCohortJoin)
	mux.HandleFunc("GET /c/{code}/p/{n}/{tok}", p.servePerson)
	mux.HandleFunc("POST /c/{code}/p/{n}/{tok}", p.servePersonJoin)
	mux.HandleFunc("GET /study", p.serveStudy)
	mux.HandleFunc("GET /study/roster.csv", p.serveRoster)
	mux.HandleFunc("POST /study/wave", p.serveStudyWave)
	mux.HandleFunc("POST /study/people", p.serveStudyPeople)
	mux.HandleFunc("POST /study/open", p.serveStudyOpen)
	mux.HandleFunc("GET /study/links.csv", p.serveStudyLinks)
	mux.HandleFunc("GET /r/{room}", p.serveRoom)
	mux.HandleFunc("GET /r/{room}/live", p.serveLive)
	mux.HandleFunc("GET /r/{room}/feed", p.serveFeed)
	mux.HandleFunc("POST /r/{room}/act", p.serveAct)
	mux.HandleFunc("GET /r/{room}/files/{seq}", p.serveFile)
	mux.HandleFunc("GET /r/{room}/dashboard", p.serveDashboard)
	mux.HandleFunc("GET /r/{room}/log", p.serveLog)
	mux.HandleFunc("GET /r/{room}/audit", p.serveAudit)
	mux.HandleFunc("GET /r/{room}/audit.jsonl", p.serveAuditLog)
	return p.guard(p.forward(mux))
}

// guard adds the security headers, bounds request bodies, and refuses
// requests from other origins that change state or open the live stream.
func (p *Platform) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		if err := p.checkHost(r); err != nil {
			http.Error(w, err.Error(), http.StatusMisdirectedRequest)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead || strings.HasSuffix(r.URL.Path, "/live") {
			if err := p.sameOrigin(r); err != nil {
				writeError(w, http.StatusForbidden, err.Error())
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, p.cfg.MaxBody)
		next.ServeHTTP(w, r)
	})
}

// sameOrigin refuses a request a browser sent from another site: its
// Origin must name this host, and its Sec-Fetch-Site (when sent) must say
// same-origin. Clients that are not browsers send neither and pass; they
// cannot ride on a user's cookies.
func (p *Platform) sameOrigin(r *http.Request) error {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return fmt.Errorf("cross-site request refused (%s)", site)
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || origin == "null" || !strings.EqualFold(u.Host, r.Host) && !p.isPublicHost(u.Host) {
		return fmt.Errorf("request from another origin refused: %q is not this server", origin)
	}
	return nil
}

// checkHost refuses, when listening on loopback, a Host that is not a
// loopback name: a page on another site must not reach the server by
// pointing its own name at 127.0.0.1 (DNS rebinding).
func (p *Platform) checkHost(r *http.Request) error {
	ln, _, err := net.SplitHostPort(p.cfg.Addr)
	if err != nil || !isLoopback(ln) {
		return nil
	}
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	if !isLoopback(host) && !p.isPublicHost(r.Host) {
		return fmt.Errorf("host %q refused: this server answers on localhost only", r.Host)
	}
	return nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// errorBody is the JSON of a refused request.
type errorBody struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, errorBody{Error: msg})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v) // the client went away: nothing to do
}

// bodyError maps a body read error to a status and a message for people.
func bodyError(err error, limit int64) (int, string) {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return http.StatusRequestEntityTooLarge, fmt.Sprintf("the request is too large: the limit is %d KiB", limit>>10)
	}
	return http.StatusBadRequest, "the request could not be read: " + err.Error()
}
