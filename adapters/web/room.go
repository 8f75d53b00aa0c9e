package web

import (
	"net/http"
	"strings"
	"time"
)

// roomPage is the data of a room.
type roomPage struct {
	Room      string
	Title     string
	Name      string
	JoinURL   string
	Organiser bool
	AutoJoin  bool // the name gate asked for a seat: the page joins once
	// NameError says why the name gate refused the name TypedName: the
	// gate shows both, and the person stays in the room's join flow.
	NameError, TypedName string
	Words                map[string]string // scriptWords, for the room's script (as JSON)
}

// serveRoom shows a room. Opened with its join link (?k=), it remembers
// the link in a cookie and drops it from the address bar.
func (p *Platform) serveRoom(w http.ResponseWriter, r *http.Request) {
	roomID := r.PathValue("room")
	info, ok := p.rooms.info(roomID)
	if !ok || roomID == Lobby {
		p.renderMessage(w, http.StatusNotFound, "No such table", "There is no table at this address. Check the link you were given.")
		return
	}
	v := p.visitor(w, r)
	if k := r.URL.Query().Get("k"); k != "" {
		if !p.keys.valid(purposeJoin, roomID, k) {
			p.renderMessage(w, http.StatusForbidden, "Wrong join link", "This join link is not valid. Ask the organiser for the table's link.")
			return
		}
		p.setCookie(w, cookieJoin+roomID, k)
		http.Redirect(w, r, "/r/"+roomID, http.StatusSeeOther)
		return
	}
	if !p.mayEnter(r, roomID) {
		p.renderMessage(w, http.StatusForbidden, "Join link needed", "To enter this table, open the join link the organiser shared.")
		return
	}
	autoJoin := false
	if c, err := r.Cookie(cookieSeat + roomID); err == nil && c.Value == "yes" {
		autoJoin = true
		http.SetCookie(w, &http.Cookie{Name: cookieSeat + roomID, Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	}
	pg := p.roomPage(r, v, roomID, info.Title)
	pg.AutoJoin = autoJoin
	p.render(w, http.StatusOK, "room", pg)
}

// roomPage is the page of room roomID for visitor v, who may enter it.
func (p *Platform) roomPage(r *http.Request, v visitor, roomID, title string) roomPage {
	return roomPage{Room: roomID, Title: title, Name: v.Name, Words: scriptWords,
		JoinURL: p.linkBase(r) + "r/" + roomID + "?k=" + p.keys.token(purposeJoin, roomID), Organiser: p.organiser(r, v, roomID)}
}

// refuseName shows the room's name gate again, with the name it refused
// and why, to a visitor who may enter the room: a refused name does not
// take anyone out of the room they were joining. It reports false when
// next is not such a room.
func (p *Platform) refuseName(w http.ResponseWriter, r *http.Request, v visitor, next, name, why string) bool {
	roomID, ok := strings.CutPrefix(next, "/r/")
	info, known := p.rooms.info(roomID)
	if !ok || !known || roomID == Lobby || !p.mayEnter(r, roomID) {
		return false
	}
	pg := p.roomPage(r, v, roomID, info.Title)
	pg.Name, pg.NameError, pg.TypedName = "", why, name // the gate shows until a name is taken
	p.render(w, http.StatusBadRequest, "room", pg)
	return true
}

// roomEntry is a room in the host's list.
type roomEntry struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Parent  string    `json:"parent"`
	Created time.Time `json:"created"`
	Join    string    `json:"join"`
}

// serveRoomList lists the rooms, with their join links, to the host.
func (p *Platform) serveRoomList(w http.ResponseWriter, r *http.Request) {
	v := p.visitor(w, r)
	if !v.Host {
		writeError(w, http.StatusForbidden, "only the host sees the list of tables")
		return
	}
	rooms, err := p.roomList(r.Context())
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	out := []roomEntry{}
	for _, rm := range rooms {
		out = append(out, roomEntry{ID: rm.ID, Title: rm.Title, Parent: rm.Parent, Created: rm.Created,
			Join: "/r/" + rm.ID + "?k=" + p.keys.token(purposeJoin, rm.ID)})
	}
	writeJSON(w, http.StatusOK, out)
}
