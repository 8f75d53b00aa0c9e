package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/roundtable-ai/roundtable/bot"
)

// cohortPage is the page of the cohort link: a name to give, then a seat.
type cohortPage struct {
	Study, Code, Name, Error string
	// Personal is the personal link's path, when the page is one: the
	// name is the roster's.
	Personal string
}

// studyFor is the open study whose code is code (any case), or nil.
func (p *Platform) studyFor(code string) *liveStudy {
	s := p.currentStudy()
	if s == nil || !strings.EqualFold(code, s.code) {
		return nil
	}
	return s
}

// serveCohortCode takes a typed short code to its cohort page.
func (p *Platform) serveCohortCode(w http.ResponseWriter, r *http.Request) {
	code := strings.ToUpper(strings.TrimSpace(r.URL.Query().Get("code")))
	if code == "" {
		p.render(w, http.StatusOK, "cohortcode", nil)
		return
	}
	if p.studyFor(code) == nil {
		p.render(w, http.StatusNotFound, "cohortcode", cohortPage{Error: fmt.Sprintf("No study has the code %q: check it with your host.", code)})
		return
	}
	http.Redirect(w, r, "/c/"+code, http.StatusSeeOther)
}

// serveCohort shows the cohort page: the person's seat when they have one.
func (p *Platform) serveCohort(w http.ResponseWriter, r *http.Request) {
	s := p.studyFor(r.PathValue("code"))
	if s == nil {
		p.renderMessage(w, http.StatusNotFound, "No such study", "This study link is not open on this server: check it with your host.")
		return
	}
	v := p.visitor(w, r)
	if !p.toSeat(w, r, s, v) {
		p.render(w, http.StatusOK, "cohort", cohortPage{Study: s.cfg.Name, Code: s.code, Name: v.Name})
	}
}

// toSeat sends v to the room of their seat, if they have one.
func (p *Platform) toSeat(w http.ResponseWriter, r *http.Request, s *liveStudy, v visitor) bool {
	room := s.roomOf(v.ID)
	if room == "" {
		return false
	}
	p.toRoom(w, r, room)
	return true
}

// toRoom lets the browser into room and sends it there.
func (p *Platform) toRoom(w http.ResponseWriter, r *http.Request, room string) {
	p.setCookie(w, cookieJoin+room, p.keys.token(purposeJoin, room))
	http.Redirect(w, r, "/r/"+room, http.StatusSeeOther)
}

// serveCohortJoin seats the person at a table of the study: the seat
// balanced blocked assignment gives them, at their wave's table of its
// condition (created when the first person comes to it), then sends them
// to its room, where they wait for the wave to start.
func (p *Platform) serveCohortJoin(w http.ResponseWriter, r *http.Request) {
	s := p.studyFor(r.PathValue("code"))
	if s == nil {
		p.renderMessage(w, http.StatusNotFound, "No such study", "This study link is not open on this server: check it with your host.")
		return
	}
	if err := r.ParseForm(); err != nil {
		code, msg := bodyError(err, p.cfg.MaxBody)
		p.renderMessage(w, code, "Not seated", msg)
		return
	}
	v := p.visitor(w, r)
	page := cohortPage{Study: s.cfg.Name, Code: s.code, Name: v.Name}
	if name := cleanName(r.PostForm.Get("name")); name != "" {
		if why := nameProblem(name); why != "" {
			page.Error = why
			p.render(w, http.StatusBadRequest, "cohort", page)
			return
		}
		v.Name = name
		p.setName(w, name)
	}
	if v.Name == "" {
		page.Error = formWords.needName
		p.render(w, http.StatusBadRequest, "cohort", page)
		return
	}
	p.seatAndGo(w, r, s, v, page, 0)
}

// seatAndGo seats v (roster person invite, from 1, or 0) and sends them
// to their room; or shows page with the reason they were not seated.
func (p *Platform) seatAndGo(w http.ResponseWriter, r *http.Request, s *liveStudy, v visitor, page cohortPage, invite int) {
	h := p.currentHandler()
	if h == nil {
		w.Header().Set("Retry-After", "1")
		page.Error = formWords.notRunning
		p.render(w, http.StatusServiceUnavailable, "cohort", page)
		return
	}
	room, code, err := p.seatPerson(r.Context(), h, s, v, invite)
	if err != nil {
		page.Error = err.Error()
		p.render(w, code, "cohort", page)
		return
	}
	p.toRoom(w, r, room)
}

// seatPerson assigns v a seat (as roster person invite, from 1, or 0
// for the cohort link), opens its table when it is the first there,
// seats v at it and starts the wave once every table of it is full. It
// returns the room, or an HTTP status and a reason for v.
func (p *Platform) seatPerson(ctx context.Context, h bot.Handler, s *liveStudy, v visitor, invite int) (string, int, error) {
	st, err := s.assign(ctx, v.ID, p.pseudonym(v.ID), invite, p.cfg.Now().UTC())
	if errors.Is(err, errInviteUsed) {
		return "", http.StatusConflict, err
	}
	if err != nil {
		p.log.Error("study: record a seat", "study", s.cfg.Name, "err", err)
		return "", http.StatusInternalServerError, fmt.Errorf("your seat could not be recorded; try again in a moment")
	}
	if st.Room != "" {
		return st.Room, http.StatusOK, nil
	}
	t, room, err := p.studyRoom(ctx, h, s, st.Condition, st.Table)
	if err != nil {
		return "", http.StatusServiceUnavailable, err
	}
	ev := &bot.Event{Platform: Name, Kind: bot.KindCommand, ID: "u:" + v.ID + ":study-join", Command: "join", Options: map[string]string{},
		User: bot.User{ID: v.ID, Name: v.Name}, Channel: room, Parent: Lobby, Native: v.ID}
	out := p.deliver(ctx, h, ev)
	if out.Refusal.Code != "" {
		return "", status(out.Refusal.Code), fmt.Errorf("you could not be seated: %s", pageReason(out.Refusal.Reason))
	}
	full, err := s.seated(ctx, v.ID, room, t)
	if err != nil {
		p.log.Error("study: record a seat's room", "study", s.cfg.Name, "err", err)
	}
	if full {
		p.beginWave(ctx, h, s, st.Table)
	}
	return room, http.StatusOK, nil
}

// studyRoom is the room of table n of condition cond: the one created,
// or a new table of the condition's preset, organised by the study.
func (p *Platform) studyRoom(ctx context.Context, h bot.Handler, s *liveStudy, cond string, n int) (*studyTable, string, error) {
	s.mu.Lock()
	t := s.table(cond, n)
	s.mu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.room != "" {
		return t, t.room, nil
	}
	c := s.condition(cond)
	ev := &bot.Event{Platform: Name, Kind: bot.KindCommand, ID: "study:" + s.cfg.Name + ":" + tableKey(cond, n), Command: "start",
		User: s.organiser(), Channel: Lobby, Native: s.organiser().ID,
		Options: map[string]string{"preset": c.Preset, "join": "no", "start": "organiser",
			"title": fmt.Sprintf("%s · %s · table %d", s.cfg.Name, cond, n+1)}}
	out := p.deliver(ctx, h, ev)
	if out.Room == "" {
		reason := strings.Join(out.Replies, " ")
		if out.Refusal.Reason != "" {
			reason = out.Refusal.Reason
		}
		p.log.Error("study: open a table", "study", s.cfg.Name, "condition", cond, "table", n+1, "reason", reason)
		return t, "", fmt.Errorf("the table of condition %s could not be opened (%s); tell your host", cond, reason)
	}
	if err := s.save(ctx, studyRoomKey+tableKey(cond, n), []byte(out.Room)); err != nil {
		return t, "", err
	}
	t.room = out.Room
	return t, t.room, nil
}

// organiser is the user that opens and starts the study's tables.
func (s *liveStudy) organiser() bot.User {
	return bot.User{ID: "study_" + s.code, Name: s.cfg.Name, Manager: true}
}

// seated records that visitor sits in room at table t; it reports
// whether that made the visitor's wave full (every table of it seated).
func (s *liveStudy) seated(ctx context.Context, visitor, room string, t *studyTable) (bool, error) {
	s.mu.Lock()
	st := s.byVisit[visitor]
	if st.Room != "" {
		s.mu.Unlock()
		return false, nil
	}
	st.Room = room
	t.seated++
	full := !s.started[st.Table] && s.waveFull(st.Table)
	seat := *st
	s.mu.Unlock()
	return full, s.saveSeat(ctx, seat)
}

// waveFull reports whether every table of wave w is full; s.mu held.
func (s *liveStudy) waveFull(w int) bool {
	for _, c := range s.cfg.Conditions {
		t, ok := s.rooms[tableKey(c.Name, w)]
		if !ok || t.seated < c.People {
			return false
		}
	}
	return true
}

// roomOf is the room the visitor was seated in, "" when none.
func (s *liveStudy) roomOf(visitor string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.byVisit[visitor]; ok {
		return st.Room
	}
	return ""
}

// beginWave starts every table of wave w that has people, once; it
// returns why a table did not start.
func (p *Platform) beginWave(ctx context.Context, h bot.Handler, s *liveStudy, w int) []string {
	s.mu.Lock()
	if s.started[w] {
		s.mu.Unlock()
		return nil
	}
	s.started[w] = true
	var rooms []string
	for _, c := range s.cfg.Conditions {
		if t, ok := s.rooms[tableKey(c.Name, w)]; ok && t.seated > 0 {
			rooms = append(rooms, t.room)
		}
	}
	s.mu.Unlock()
	var problems []string
	if err := s.save(ctx, fmt.Sprintf("%s%04d", studyWaveKey, w), []byte("started")); err != nil {
		problems = append(problems, err.Error())
	}
	for _, room := range rooms {
		ev := &bot.Event{Platform: Name, Kind: bot.KindCommand, ID: "study:begin:" + room, Command: "begin", Options: map[string]string{},
			User: s.organiser(), Channel: room, Parent: Lobby, Native: s.organiser().ID}
		if out := p.deliver(ctx, h, ev); out.Refusal.Code != "" {
			problems = append(problems, fmt.Sprintf("%s: %s", room, out.Refusal.Reason))
		}
	}
	return problems
}

// pseudonym is a person's ID in the study's exports: stable, not their
// browser's ID.
func (p *Platform) pseudonym(visitor string) string {
	return "P" + p.keys.token("person", visitor)[:10]
}

// studyLeft records that visitor left room, when that is their study seat.
func (p *Platform) studyLeft(ctx context.Context, visitor, room string) {
	s := p.currentStudy()
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.byVisit[visitor]
	if !ok || st.Room != room || !st.Left.IsZero() {
		return
	}
	st.Left = p.cfg.Now().UTC()
	if err := s.saveSeat(ctx, *st); err != nil {
		p.log.Error("study: record a leave", "study", s.cfg.Name, "err", err)
	}
}
