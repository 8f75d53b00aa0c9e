package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"time"
)

// When several processes serve one store (Config.Shared), each table is
// served by one of them, its owner (bot.Owners), and a room's pages, feed
// and acts are answered there: any process accepts a room's request and
// sends it on to the owner of the room's table (a reverse proxy, so a live
// stream flows through), or answers it itself when it owns the table. A
// process loads a room when it takes its table over (Adopt), and lets it
// go when it loses it (Abandon). The lobby, its start form and the host's
// list of rooms, which belong to no table, are answered by any process.

// forwardedHeader marks a request sent on by another process: it is not
// sent on again (two processes that disagree about an owner for a moment
// do not bounce it between them).
const forwardedHeader = "X-Roundtable-Forwarded"

// retryAfter is what a client is told to wait while a table moves.
const retryAfter = "1"

// roomOf returns the room of a path under /r/, or "".
func roomOf(path string) string {
	rest, ok := strings.CutPrefix(path, "/r/")
	if !ok {
		return ""
	}
	room, _, _ := strings.Cut(rest, "/")
	return room
}

// forward answers a room's request where its table is served.
func (p *Platform) forward(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		room := roomOf(r.URL.Path)
		if !p.cfg.Shared || p.tables == nil || room == "" || room == Lobby {
			next.ServeHTTP(w, r)
			return
		}
		o, err := p.tables.Where(r.Context(), room)
		switch {
		case err != nil:
			p.log.Warn("web: find the process that serves a room", "room", room, "err", err)
			p.moving(w)
		case o.Self:
			if err := p.rooms.ensure(r.Context(), room); err != nil {
				p.log.Warn("web: load room", "room", room, "err", err)
				p.moving(w)
				return
			}
			next.ServeHTTP(w, r)
		case o.Addrs[Name] == "" || r.Header.Get(forwardedHeader) != "":
			p.moving(w)
		default:
			p.proxy(w, r, o.Addrs[Name])
		}
	})
}

// moving answers a request for a room whose table is moving between
// processes: the client tries again in a moment.
func (p *Platform) moving(w http.ResponseWriter) {
	w.Header().Set("Retry-After", retryAfter)
	writeError(w, http.StatusServiceUnavailable, "this table is moving to another server; try again in a moment")
}

// proxy sends r on to the process at base and streams its answer back.
func (p *Platform) proxy(w http.ResponseWriter, r *http.Request, base string) {
	target, err := url.Parse(base)
	if err != nil {
		p.log.Error("web: the owner's address", "addr", base, "err", err)
		p.moving(w)
		return
	}
	// A live stream flows through for as long as it lasts.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = pr.In.Host // the owner checks the origin and builds links as the browser sees them
			pr.Out.Header.Set(forwardedHeader, "1")
		},
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			p.log.Info("web: the room's owner did not answer", "owner", base, "err", err)
			p.moving(w)
		},
	}
	rp.ServeHTTP(w, r)
}

// Adopt implements bot.Adopter: the room of a table this process takes
// over is read again from the store, as the last owner left it.
func (p *Platform) Adopt(ctx context.Context, room string) error {
	if err := p.rooms.reload(ctx, room); err != nil {
		return fmt.Errorf("web: %w", err)
	}
	return nil
}

// Abandon implements bot.Adopter: the room of a table another process
// took over leaves memory, and its live streams end (their browsers
// reconnect, and are sent on to the new owner).
func (p *Platform) Abandon(room string) { p.rooms.forget(room) }
