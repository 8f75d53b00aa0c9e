package web

import (
	"encoding/base64"
	"net/http"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// Cookies. Join and organiser cookies are per room.
const (
	cookieUser      = "rt_user"
	cookieName      = "rt_name"
	cookieHost      = "rt_host"
	cookieJoin      = "rt_join_"
	cookieOrganiser = "rt_org_"
	cookieSeat      = "rt_seat_" // the name gate asked for a seat in this room
	cookieAge       = 180 * 24 * 3600
)

// visitor is the browser behind a request.
type visitor struct {
	ID   string // random per browser, signed in its cookie
	Name string // chosen display name, may be empty
	Host bool   // opened the host link
}

// visitor returns the request's visitor, giving a new browser its ID.
func (p *Platform) visitor(w http.ResponseWriter, r *http.Request) visitor {
	v := visitor{}
	if c, err := r.Cookie(cookieUser); err == nil {
		v.ID, _ = p.keys.userFrom(c.Value)
	}
	if v.ID == "" {
		v.ID = randomID(12)
		p.setCookie(w, cookieUser, p.keys.signUser(v.ID))
	}
	if c, err := r.Cookie(cookieName); err == nil {
		if b, err := base64.RawURLEncoding.DecodeString(c.Value); err == nil {
			v.Name = cleanName(string(b))
		}
	}
	if c, err := r.Cookie(cookieHost); err == nil {
		v.Host = p.keys.valid(purposeHost, "host", c.Value)
	}
	return v
}

// mayEnter reports whether the visitor holds the room's join link.
func (p *Platform) mayEnter(r *http.Request, room string) bool {
	c, err := r.Cookie(cookieJoin + room)
	return err == nil && p.keys.valid(purposeJoin, room, c.Value)
}

// mayOpen reports whether the request may open the room's pages and
// feeds: the room exists and the browser holds its join link, or host is
// true (the caller lets the host in).
func (p *Platform) mayOpen(r *http.Request, room string, host bool) bool {
	_, ok := p.rooms.info(room)
	return ok && (host || p.mayEnter(r, room))
}

// organises reports whether the visitor holds the room's organiser link
// (or the host's).
func (p *Platform) organises(r *http.Request, v visitor, room string) bool {
	if v.Host {
		return true
	}
	c, err := r.Cookie(cookieOrganiser + room)
	return err == nil && p.keys.valid(purposeOrganiser, room, c.Value)
}

func (p *Platform) setCookie(w http.ResponseWriter, name, value string) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: cookieAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: p.secureCookies()})
}

func (p *Platform) setName(w http.ResponseWriter, name string) {
	p.setCookie(w, cookieName, base64.RawURLEncoding.EncodeToString([]byte(name)))
}

// cleanName trims a display name, drops control and format characters
// (bidi overrides could disguise it; the emoji joiner stays) and clips it
// to the bytes a participant name may have.
func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) && r != 0x200d || r == utf8.RuneError {
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	for len(s) > roundtable.MaxNameLen {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}

// user is the bot.User of a visitor in a room.
func (p *Platform) user(r *http.Request, v visitor, room string) bot.User {
	return bot.User{ID: v.ID, Name: v.Name, Manager: p.organises(r, v, room)}
}

// note collects, through the context of one handled event, what the bot
// did for it: the room it opened and the replies it gave.
type note struct {
	mu      sync.Mutex
	user    string
	room    string
	replies []string
	refusal refusal
}

type noteKey struct{}

func (n *note) setRoom(id string) {
	n.mu.Lock()
	n.room = id
	n.mu.Unlock()
}

func (n *note) add(r bot.Reply) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if r.Refused != "" && n.refusal.Code == "" {
		n.refusal = refusal{Code: r.Refused, Reason: r.Text}
	}
	if r.Text != "" {
		n.replies = append(n.replies, r.Text)
	}
}

// refuse records why the act was refused, unless a reason is known.
func (n *note) refuse(code roundtable.Code, reason string) {
	n.add(bot.Reply{Text: reason, Refused: code})
}

func (n *note) result() outcome {
	n.mu.Lock()
	defer n.mu.Unlock()
	return outcome{Room: n.room, Replies: append([]string(nil), n.replies...), Refusal: n.refusal}
}
