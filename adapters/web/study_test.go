package web_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
	rtvote "github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// classStudy is a study of two conditions, three people and one bot at
// each table, one round whose phases close after two minutes.
const classStudy = `name = "class"
seed = 7
[defaults]
task = "text"
question = "Which trip do we take in spring?"
agent = "llm"
rounds = 1
seats = 4
humans = 3
durations = { message = "2m", proposal = "2m", vote = "2m" }
[[condition]]
name = "plurality"
rule = "plurality"
[[condition]]
name = "borda"
rule = "borda"
`

// studyEnv is the web channel behind a bot service whose presets are a
// study's conditions, with the study open.
type studyEnv struct {
	*liveEnv
	study *experiment.Study
}

func newStudyEnv(t testing.TB, text string) *studyEnv {
	t.Helper()
	s, conds, svc := studyService(t, text)
	e := &studyEnv{study: s}
	e.liveEnv = newLiveEnvWith(t, web.Config{}, svc)
	openStudy(t, e.p, e.db, s, conds)
	return e
}

// studyService reads a study, and makes the bot service whose presets
// are its conditions (their bots are Scribes).
func studyService(t testing.TB, text string) (*experiment.Study, []web.StudyCondition, func(bot.Platform, *store.DB, *bottest.Clock) *bot.Service) {
	t.Helper()
	s, err := experiment.ParseStudy(filepath.Join(t.TempDir(), "study.toml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	live, err := s.Live()
	if err != nil {
		t.Fatal(err)
	}
	presets := map[string]bot.Preset{}
	var conds []web.StudyCondition
	for _, c := range live {
		cfg := c.Config
		cfg.Participants = c.Bots
		presets["study:"+c.Name] = bot.Preset{Name: "study:" + c.Name, Config: cfg.WithDefaults()}
		conds = append(conds, web.StudyCondition{Name: c.Name, Preset: "study:" + c.Name, People: c.People})
	}
	return s, conds, func(p bot.Platform, db *store.DB, clock *bottest.Clock) *bot.Service {
		cfg := bot.Config{Defaults: roundtable.Config{Rule: rtvote.Plurality, Rounds: 1}, Policy: bot.Policy{Manager: true}, Presets: presets,
			RetryMin: 5 * time.Millisecond, RetryMax: 50 * time.Millisecond}
		deps := bot.Deps{Store: db, Clock: clock,
			Agent: func(roundtable.Participant, roundtable.Task) (roundtable.Agent, error) { return bottest.Scribe{}, nil },
			Task: func(spec roundtable.TaskSpec, _ int) (roundtable.Task, error) {
				return roundtable.TextTask{Topic: spec.Topic}, nil
			}}
		return bot.New(cfg, deps, p)
	}
}

// openStudy opens s on p, its results measured from db.
func openStudy(t testing.TB, p *web.Platform, db *store.DB, s *experiment.Study, conds []web.StudyCondition) {
	t.Helper()
	out := t.TempDir()
	err := p.OpenStudy(context.Background(), web.StudyConfig{Name: s.Name, Seed: s.Seed, Conditions: conds,
		Results:     func(ctx context.Context) (web.StudyResults, error) { return results(ctx, db, s, out) },
		ResultsWait: 5 * time.Minute}) // the tests read the results of every ended table at once
	if err != nil {
		t.Fatal(err)
	}
}

// results are the study's results as `study analyze` computes them.
func results(ctx context.Context, db *store.DB, s *experiment.Study, out string) (web.StudyResults, error) {
	tab, notes, err := experiment.LiveResults(ctx, db, s, out)
	r := web.StudyResults{Metrics: tab.Metrics, Notes: notes}
	for _, row := range tab.Rows {
		r.Rows = append(r.Rows, web.StudyResultRow{Condition: row.Condition, Cells: row.Cells})
	}
	return r, err
}

// arrive opens the cohort link as a new person named name and takes a
// seat; it returns the room the person was sent to.
func (e *studyEnv) arrive(c *http.Client, code, name string) (string, error) {
	resp, err := c.PostForm(e.base+"/c/"+code, url.Values{"name": {name}})
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	room, ok := strings.CutPrefix(resp.Request.URL.Path, "/r/")
	if resp.StatusCode != http.StatusOK || !ok {
		return "", fmt.Errorf("%s: %d at %s", name, resp.StatusCode, resp.Request.URL)
	}
	return room, nil
}

// TestStudyCohortOf30 plays a class over HTTP: 30 people open one cohort
// link at once; they are seated at 10 tables of 2 conditions, 15 each;
// each wave of two tables starts as it fills; the tables run to their
// end (people silent, the bots acting, the phases closing on time); the
// host's dashboard shows every table and the results per condition as
// `study analyze` computes them from the live database; the roster lists
// everyone by pseudonym; people who are not the host see neither.
func TestStudyCohortOf30(t *testing.T) {
	e := newStudyEnv(t, classStudy)
	link, code := e.p.CohortURL()
	if !strings.HasSuffix(link, "/c/"+code) || len(code) != 6 {
		t.Fatalf("cohort link %q, code %q", link, code)
	}
	rooms := make([]string, 30)
	errs := make([]error, 30)
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rooms[i], errs[i] = e.arrive(&http.Client{Jar: newJar()}, strings.ToLower(code), fmt.Sprintf("Student %d", i+1))
		}()
	}
	wg.Wait()
	perRoom, perCond := map[string]int{}, map[string]int{}
	for i, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
		perRoom[rooms[i]]++
	}
	if len(perRoom) != 10 {
		t.Fatalf("30 people sat at %d tables, want 10: %v", len(perRoom), perRoom)
	}
	for room, n := range perRoom {
		st := e.state(t, room)
		perCond[st.Config.Labels[experiment.LabelCondition]] += n
		if n != 3 || len(st.Participants) != 4 || st.Status != roundtable.StatusRunning {
			t.Errorf("room %s: %d people seated, %d participants, %s; want 3 people and the bot, running (its wave was full)", room, n, len(st.Participants), st.Status)
		}
	}
	if perCond["plurality"] != 15 || perCond["borda"] != 15 {
		t.Errorf("people per condition %v, want 15 each", perCond)
	}
	for i := 0; i < 300 && !e.allEnded(t, perRoom); i++ {
		e.clock.Advance(2 * time.Minute) // people do not act: every phase closes at its deadline
	}
	if !e.allEnded(t, perRoom) {
		t.Fatal("the tables did not end")
	}
	host := e.browser(t, "")
	if code, body := e.send(t, host, "GET", e.p.HostURL(), nil); code != http.StatusOK {
		t.Fatalf("host link: %d %s", code, body)
	}
	code2, dash := e.send(t, host, "GET", "/study", nil)
	if code2 != http.StatusOK {
		t.Fatalf("dashboard: %d %s", code2, dash)
	}
	for _, want := range []string{`id="condition-plurality"`, `id="condition-borda"`, "15 seated · 5 tables of 3 people", "ended",
		"<td>plurality</td>", "<td>borda</td>", "30 people have arrived", code} {
		if !strings.Contains(dash, want) {
			t.Errorf("the dashboard lacks %q:\n%s", want, dash)
		}
	}
	if strings.Contains(dash, "Start wave") {
		t.Error("the dashboard offers to start a wave that started when it filled")
	}
	_, roster := e.send(t, host, "GET", "/study/roster.csv", nil)
	rows, err := csv.NewReader(strings.NewReader(roster)).ReadAll()
	if err != nil || len(rows) != 31 || strings.Join(rows[0], ",") != "person,condition,table,room,wave,seat,joined,left" {
		t.Fatalf("roster: %v\n%s", err, roster)
	}
	if strings.Contains(roster, "Student") {
		t.Error("the roster names people")
	}
	student := e.browser(t, "Eve")
	for _, path := range []string{"/study", "/study/roster.csv"} {
		if code, _ := e.send(t, student, "GET", path, nil); code != http.StatusForbidden {
			t.Errorf("a student GET %s: %d, want 403", path, code)
		}
	}
}

// allEnded reports whether every room's table has ended.
func (e *studyEnv) allEnded(t *testing.T, rooms map[string]int) bool {
	for room := range rooms {
		if e.state(t, room).Status != roundtable.StatusEnded {
			return false
		}
	}
	return true
}

// TestStudyHostStartsAWaveThatIsNotFull: four people of a wave of six
// wait at their tables; a student cannot start the wave, the host can,
// from the dashboard, and both tables start with whoever is there. A
// person without a name, or with a wrong code, is told why.
func TestStudyHostStartsAWaveThatIsNotFull(t *testing.T) {
	e := newStudyEnv(t, classStudy)
	_, code := e.p.CohortURL()
	rooms := map[string]bool{}
	for i := range 4 {
		room, err := e.arrive(&http.Client{Jar: newJar()}, code, fmt.Sprintf("Student %d", i+1))
		if err != nil {
			t.Fatal(err)
		}
		rooms[room] = true
	}
	for room := range rooms {
		if st := e.state(t, room); st.Status != roundtable.StatusCreated {
			t.Fatalf("room %s is %s before its wave is full", room, st.Status)
		}
	}
	nameless := &http.Client{Jar: newJar()}
	if code, body := e.send(t, nameless, "POST", "/c/"+code, url.Values{}); code != http.StatusBadRequest || !strings.Contains(body, `id="cohort-error"`) {
		t.Errorf("a person without a name: %d\n%.300s", code, body)
	}
	if code, _ := e.send(t, nameless, "GET", "/c/NOPE12", nil); code != http.StatusNotFound {
		t.Errorf("a wrong code: %d, want 404", code)
	}
	if got, body := e.send(t, nameless, "GET", "/c?code="+strings.ToLower(code), nil); got != http.StatusOK || !strings.Contains(body, `action="/c/`+code+`"`) {
		t.Errorf("the typed code: %d\n%.300s", got, body)
	}
	student := e.browser(t, "Eve")
	if got, _ := e.send(t, student, "POST", "/study/wave", url.Values{"wave": {"1"}}); got != http.StatusForbidden {
		t.Errorf("a student starts a wave: %d, want 403", got)
	}
	host := e.browser(t, "")
	e.send(t, host, "GET", e.p.HostURL(), nil)
	if _, dash := e.send(t, host, "GET", "/study", nil); !strings.Contains(dash, "4 of 6") || !strings.Contains(dash, "Start wave 1") {
		t.Fatalf("the dashboard before the start:\n%s", dash)
	}
	if got, body := e.send(t, host, "POST", "/study/wave", url.Values{"wave": {"2"}}); got != http.StatusBadRequest {
		t.Errorf("the host starts a wave nobody is in: %d %.200s", got, body)
	}
	got, dash := e.send(t, host, "POST", "/study/wave", url.Values{"wave": {"1"}})
	if got != http.StatusOK || strings.Contains(dash, "Start wave 1") || strings.Contains(dash, `role="alert"`) {
		t.Errorf("the host starts wave 1: %d\n%s", got, dash)
	}
	for room := range rooms {
		if st := e.state(t, room); st.Status != roundtable.StatusRunning {
			t.Errorf("room %s is %s after the host started its wave", room, st.Status)
		}
	}
	// Whoever arrives after the host started a wave that was not full
	// waits for the next wave: the empty seats of wave 1 stay empty.
	late, err := e.arrive(&http.Client{Jar: newJar()}, code, "Student 5")
	if err != nil {
		t.Fatal(err)
	}
	if st := e.state(t, late); rooms[late] || st.Status != roundtable.StatusCreated {
		t.Errorf("a person arriving after wave 1 started sits in room %s (%s), want a waiting table of wave 2", late, st.Status)
	}
	// Nobody has written yet: the dashboard names, per table, the people
	// its open phase waits for.
	_, dash = e.send(t, host, "GET", "/study", nil)
	for i := range 4 {
		if !regexp.MustCompile(`<td class="stalled">\d+: [^<]*Student ` + strconv.Itoa(i+1) + `\b`).MatchString(dash) {
			t.Errorf("the dashboard does not show Student %d as stalled:\n%s", i+1, dash)
		}
	}
}
