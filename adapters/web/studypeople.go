package web

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// A study's roster of names gives each name a personal link: it seats
// that person, under that name, by the study's balanced seating. The
// names are kept in Blobs beside the seats; exports name people by
// pseudonym only.

const (
	studyPersonKey = "person:"
	purposeInvite  = "invite"
	// maxRosterNames bounds one roster upload.
	maxRosterNames = 5000
)

// parseNames reads a roster of names: CSV with or without a "name"
// header, a byte-order mark, CRLF line ends, quoted names and blank
// lines; the name is the "name" column, or the first. A name that is
// refused or given twice is an error naming its line.
func parseNames(data []byte) ([]string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord, r.TrimLeadingSpace = -1, true
	var names []string
	col, first := 0, true
	seen := map[string]int{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("the roster is not CSV: %w", err)
		}
		line, _ := r.FieldPos(0)
		if first {
			first = false
			if i := headerColumn(rec); i >= 0 {
				col = i
				continue
			}
		}
		if col >= len(rec) || strings.TrimSpace(strings.Join(rec, "")) == "" {
			continue // a blank row
		}
		name := cleanName(rec[col])
		if name == "" {
			return nil, fmt.Errorf("line %d: no name in column %d", line, col+1)
		}
		if why := nameProblem(name); why != "" {
			return nil, fmt.Errorf("line %d: %q: %s", line, name, why)
		}
		key := strings.ToLower(name)
		if at, ok := seen[key]; ok {
			return nil, fmt.Errorf("line %d: %q is already on line %d: give each person a name of their own", line, name, at)
		}
		seen[key] = line
		names = append(names, name)
		if len(names) > maxRosterNames {
			return nil, fmt.Errorf("line %d: a roster holds at most %d names", line, maxRosterNames)
		}
	}
	if len(names) == 0 {
		return nil, errors.New("the roster has no name")
	}
	return names, nil
}

// headerColumn is the column of a header row's name cell, or -1 when
// rec is not a header.
func headerColumn(rec []string) int {
	for i, cell := range rec {
		switch strings.ToLower(strings.TrimSpace(cell)) {
		case "name", "names", "full name", "student", "participant":
			return i
		}
	}
	return -1
}

// addPeople adds names to the study's roster; a name already on it
// keeps its link. It returns how many were new.
func (s *liveStudy) addPeople(ctx context.Context, names []string) (int, error) {
	s.mu.Lock()
	have := map[string]bool{}
	for _, n := range s.people {
		have[strings.ToLower(n)] = true
	}
	var fresh []string
	for _, n := range names {
		if !have[strings.ToLower(n)] {
			fresh = append(fresh, n)
		}
	}
	start := len(s.people)
	s.people = append(s.people, fresh...)
	s.mu.Unlock()
	for i, n := range fresh {
		if err := s.save(ctx, fmt.Sprintf("%s%06d", studyPersonKey, start+i), []byte(n)); err != nil {
			return i, err
		}
	}
	return len(fresh), nil
}

// personLink is the path of roster person n's personal link.
func (p *Platform) personLink(s *liveStudy, n int) string {
	return fmt.Sprintf("c/%s/p/%d/%s", s.code, n+1, p.keys.token(purposeInvite, s.cfg.Name+"\x00"+strconv.Itoa(n)))
}

// personOf is the roster name a personal link's number and token give,
// and its index.
func (p *Platform) personOf(s *liveStudy, num, tok string) (int, string, bool) {
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 || !p.keys.valid(purposeInvite, s.cfg.Name+"\x00"+strconv.Itoa(n-1), tok) {
		return 0, "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if n > len(s.people) {
		return 0, "", false
	}
	return n - 1, s.people[n-1], true
}

// serveStudyPeople adds the names the host pastes or uploads (CSV) to the
// study's roster.
func (p *Platform) serveStudyPeople(w http.ResponseWriter, r *http.Request) {
	s, ok := p.studyHost(w, r)
	if !ok {
		return
	}
	data, err := rosterUpload(r, p.cfg.MaxBody)
	if err == nil {
		var names []string
		if names, err = parseNames(data); err == nil {
			_, err = s.addPeople(r.Context(), names)
		}
	}
	if err != nil {
		d := p.studyDash(r.Context(), s)
		d.Cohort = p.linkBase(r) + "c/" + s.code
		d.PeopleError = "Names not added: " + err.Error()
		p.render(w, http.StatusBadRequest, "study", d)
		return
	}
	http.Redirect(w, r, "/study#people", http.StatusSeeOther)
}

// rosterUpload is the roster a form sends: its file, or the pasted text.
func rosterUpload(r *http.Request, limit int64) ([]byte, error) {
	if err := r.ParseMultipartForm(limit); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		_, msg := bodyError(err, limit)
		return nil, errors.New(msg)
	}
	if f, _, err := r.FormFile("file"); err == nil {
		defer f.Close()
		data, err := io.ReadAll(f)
		if err != nil {
			return nil, fmt.Errorf("read the file: %w", err)
		}
		if len(bytes.TrimSpace(data)) > 0 {
			return data, nil
		}
	}
	return []byte(r.PostFormValue("names")), nil
}

// serveStudyLinks sends the host every roster name with its personal link.
func (p *Platform) serveStudyLinks(w http.ResponseWriter, r *http.Request) {
	s, ok := p.studyHost(w, r)
	if !ok {
		return
	}
	base := p.linkBase(r)
	s.mu.Lock()
	rows := [][]string{{"name", "link"}}
	for i, name := range s.people {
		rows = append(rows, []string{name, base + p.personLink(s, i)})
	}
	s.mu.Unlock()
	sendCSV(w, s.cfg.Name+"-links.csv", rows)
}

// servePerson shows a personal link's page: the person's name, and a
// button that seats them.
func (p *Platform) servePerson(w http.ResponseWriter, r *http.Request) {
	s, n, name, ok := p.personRequest(w, r)
	if !ok {
		return
	}
	if !p.toSeat(w, r, s, p.visitor(w, r)) {
		p.render(w, http.StatusOK, "cohort", cohortPage{Study: s.cfg.Name, Code: s.code, Name: name, Personal: "/" + p.personLink(s, n)})
	}
}

// servePersonJoin seats the personal link's person under their roster
// name, as the cohort link seats anyone.
func (p *Platform) servePersonJoin(w http.ResponseWriter, r *http.Request) {
	s, n, name, ok := p.personRequest(w, r)
	if !ok {
		return
	}
	v := p.visitor(w, r)
	page := cohortPage{Study: s.cfg.Name, Code: s.code, Name: name, Personal: "/" + p.personLink(s, n)}
	v.Name = name
	p.setName(w, name)
	p.seatAndGo(w, r, s, v, page, n+1)
}

// personRequest is the open study and the roster person of a personal
// link's request; otherwise it answers the request.
func (p *Platform) personRequest(w http.ResponseWriter, r *http.Request) (*liveStudy, int, string, bool) {
	s := p.studyFor(r.PathValue("code"))
	if s != nil {
		if n, name, ok := p.personOf(s, r.PathValue("n"), r.PathValue("tok")); ok {
			return s, n, name, true
		}
	}
	p.renderMessage(w, http.StatusNotFound, "No such link", "This personal study link is not open on this server: check it with your host.")
	return nil, 0, "", false
}
