package web_test

import (
	"bytes"
	"encoding/csv"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// upload posts a roster file to the study dashboard as the browser form
// does (multipart), and returns the final status and body.
func (e *studyEnv) upload(t *testing.T, c *http.Client, file string) (int, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", "names.csv")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write([]byte(file))
	mw.WriteField("names", "")
	mw.Close()
	req, err := http.NewRequest("POST", e.base+"/study/people", &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return roundTrip(t, c, req)
}

// TestStudyRosterGivesPersonalLinks: the host uploads a roster as a
// spreadsheet exports it (a byte-order mark, CRLF, a header, a quoted
// name with a comma, a blank line); each name gets a personal link, which
// the host downloads; a person opening theirs is seated under their name
// by the study's seating; the link seats no second browser; a forged
// link, a student's upload and a roster repeating a name are refused,
// the last naming its line; the roster of seats stays pseudonymised.
func TestStudyRosterGivesPersonalLinks(t *testing.T) {
	e := newStudyEnv(t, classStudy)
	host := e.browser(t, "")
	e.send(t, host, "GET", e.p.HostURL(), nil)
	file := "\ufeffName,Email\r\n\"Lovelace, Ada\",ada@example.org\r\n\r\nAlan Turing,alan@example.org\r\n<b>Grace</b>,g@example.org\r\n"
	if code, dash := e.upload(t, host, file); code != http.StatusOK || !strings.Contains(dash, "3 names have a personal link") || strings.Contains(dash, "<b>Grace") {
		t.Fatalf("upload: %d\n%s", code, dash)
	}
	code, dash := e.send(t, host, "POST", "/study/people", url.Values{"names": {"Ann\nBob\nann\n"}})
	if code != http.StatusBadRequest || !strings.Contains(dash, `id="people-error"`) || !strings.Contains(dash, "line 3") {
		t.Errorf("a roster repeating a name: %d\n%s", code, dash)
	}
	student := e.browser(t, "Eve")
	if code, _ := e.send(t, student, "POST", "/study/people", url.Values{"names": {"Mallory"}}); code != http.StatusForbidden {
		t.Errorf("a student adds names: %d, want 403", code)
	}
	_, links := e.send(t, host, "GET", "/study/links.csv", nil)
	rows, err := csv.NewReader(strings.NewReader(links)).ReadAll()
	if err != nil || len(rows) != 4 || strings.Join(rows[0], ",") != "name,link" || rows[1][0] != "Lovelace, Ada" || rows[2][0] != "Alan Turing" {
		t.Fatalf("links: %v\n%s", err, links)
	}
	ada := &http.Client{Jar: newJar()}
	if code, page := e.send(t, ada, "GET", rows[1][1], nil); code != http.StatusOK || !strings.Contains(page, `<strong id="person-name">Lovelace, Ada</strong>`) {
		t.Fatalf("Ada's link: %d\n%s", code, page)
	}
	resp, err := ada.PostForm(rows[1][1], url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	room, ok := strings.CutPrefix(resp.Request.URL.Path, "/r/")
	if resp.StatusCode != http.StatusOK || !ok {
		t.Fatalf("Ada takes her seat: %d at %s", resp.StatusCode, resp.Request.URL)
	}
	st := e.state(t, room)
	if !strings.Contains(participantNames(st.Participants), "Lovelace, Ada") {
		t.Errorf("Ada's table seats %s", participantNames(st.Participants))
	}
	if code, page := e.send(t, &http.Client{Jar: newJar()}, "POST", rows[1][1], url.Values{}); code != http.StatusConflict || !strings.Contains(page, "another browser") {
		t.Errorf("Ada's link in a second browser: %d\n%.300s", code, page)
	}
	forged := strings.TrimSuffix(rows[2][1], rows[2][1][len(rows[2][1])-4:]) + "AAAA"
	if code, _ := e.send(t, student, "GET", forged, nil); code != http.StatusNotFound {
		t.Errorf("a forged link: %d, want 404", code)
	}
	if _, err := e.arrive(&http.Client{Jar: newJar()}, e.studyCode(), "Walk-in"); err != nil {
		t.Fatal(err)
	}
	_, roster := e.send(t, host, "GET", "/study/roster.csv", nil)
	if rows, _ := csv.NewReader(strings.NewReader(roster)).ReadAll(); len(rows) != 3 || strings.Contains(roster, "Lovelace") || !strings.HasPrefix(rows[1][0], "P") {
		t.Errorf("the roster of seats:\n%s", roster)
	}
}

func (e *studyEnv) studyCode() string {
	_, code := e.p.CohortURL()
	return code
}

// participantNames lists a table's participants' names.
func participantNames(ps []roundtable.Participant) string {
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	return strings.Join(names, "; ")
}
