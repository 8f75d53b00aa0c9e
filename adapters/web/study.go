package web

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"
)

// StudyConfig is a study the web channel runs live: one cohort link (and
// a short code) seats each arriving person at a table of a condition.
// Seating is balanced and blocked: arrivals are taken in blocks of one
// seat per condition, each block in an order drawn from Seed, so the
// counts per condition never differ by more than one. A condition's
// people fill its tables in turn; wave w is table w of every condition.
// A wave's tables wait for their people and start together once every
// one of them is full, or when the host starts the wave.
type StudyConfig struct {
	Name       string
	Seed       int64
	Conditions []StudyCondition
	// Results, when set, measures the study's ended tables per condition
	// (as `roundtable study analyze` does) for the host's dashboard.
	Results func(ctx context.Context) (StudyResults, error)
	// ResultsWait is how long the dashboard waits for a measure of newly
	// ended tables before it shows the last results with a word that new
	// ones are on their way (DefaultResultsWait when zero). Measuring
	// runs apart from the requests: a class's host is never held by it.
	ResultsWait time.Duration
}

// DefaultResultsWait is StudyConfig.ResultsWait's default.
const DefaultResultsWait = 2 * time.Second

// resultsTimeout bounds one measure of a study's ended tables.
const resultsTimeout = 10 * time.Minute

// StudyCondition is one condition of a live study.
type StudyCondition struct {
	Name string
	// Preset is the bot service's preset a table of the condition is
	// started from (its settings, its bots and its study labels).
	Preset string
	// People is how many people sit at each of its tables.
	People int
}

// StudyResults are a study's results per condition, for the dashboard.
type StudyResults struct {
	Metrics []string         // column names, in order
	Rows    []StudyResultRow // one per condition group
	Notes   []string         // what was left out, and why
}

// StudyResultRow is one condition group's results: a cell per metric.
type StudyResultRow struct {
	Condition string
	Cells     []string
}

// Validate reports the first problem with c.
func (c StudyConfig) Validate() error {
	if c.Name == "" {
		return errors.New("study: the study has no name")
	}
	if len(c.Conditions) == 0 {
		return fmt.Errorf("study %s: no condition", c.Name)
	}
	seen := map[string]bool{}
	for i, cond := range c.Conditions {
		switch {
		case cond.Name == "" || seen[cond.Name]:
			return fmt.Errorf("study %s: condition[%d]: name %q is empty or repeated", c.Name, i, cond.Name)
		case cond.People < 1:
			return fmt.Errorf("study %s: condition %q: seats no person (humans = 0): a live study seats people", c.Name, cond.Name)
		case cond.Preset == "":
			return fmt.Errorf("study %s: condition %q: no preset", c.Name, cond.Name)
		}
		seen[cond.Name] = true
	}
	return nil
}

// seatOf is where arrival i of a study sits: the condition (its index),
// the table of that condition (the wave) and the seat at it. Block
// i/len(conds) is a permutation of the conditions drawn from the seed and
// the block's number, so it does not depend on any other block.
func (c StudyConfig) seatOf(i int) (cond, table, seat int) {
	n := len(c.Conditions)
	block := i / n
	rng := rand.New(rand.NewPCG(uint64(c.Seed), uint64(block)))
	cond = rng.Perm(n)[i%n]
	// Each earlier block held one seat of every condition: this is the
	// condition's arrival number block.
	people := c.Conditions[cond].People
	return cond, block / people, block % people
}

// studySeat is one person's seat in a study, as the roster lists it.
type studySeat struct {
	N         int       `json:"n"` // arrival number, from 0
	Visitor   string    `json:"visitor"`
	Person    string    `json:"person"` // pseudonym, as exported
	Condition string    `json:"condition"`
	Table     int       `json:"table"` // of the condition; the wave
	Seat      int       `json:"seat"`
	Room      string    `json:"room,omitempty"`
	Joined    time.Time `json:"joined,omitzero"`
	Left      time.Time `json:"left,omitzero"`
	// Invite is the roster number (from 1) of the personal link that
	// seated the person; 0 for the cohort link.
	Invite int `json:"invite,omitempty"`
	// unsaved marks a seat given but not yet recorded.
	unsaved bool
}

// liveStudy is the open study's state: every seat given, the rooms of
// its tables and the waves started. It is kept in Blobs, so a restart
// keeps every assignment.
type liveStudy struct {
	cfg   StudyConfig
	code  string
	blobs Blobs
	ns    string

	mu      sync.Mutex
	seats   []*studySeat
	byVisit map[string]*studySeat
	rooms   map[string]*studyTable // "COND/TABLE"
	started map[int]bool           // waves
	people  []string               // the roster's names, by personal link

	// The results of the tables ended when they were last measured.
	resultsMu  sync.Mutex
	measured   int
	results    StudyResults
	resultsErr error
	measuring  chan struct{} // closed when the measure under way ends; nil when none is
}

// resultsOf returns the study's results, measured again when more of its
// tables have ended (ended of them now). The measure runs on its own and
// is waited for up to the study's ResultsWait; then the last results are
// returned, with fresh true only when they count every ended table.
func (s *liveStudy) resultsOf(ctx context.Context, ended int) (res StudyResults, fresh bool, err error) {
	s.resultsMu.Lock()
	if ended == 0 || s.cfg.Results == nil {
		s.resultsMu.Unlock()
		return StudyResults{}, true, nil
	}
	if ended != s.measured && s.measuring == nil {
		done := make(chan struct{})
		s.measuring = done
		go func() {
			defer close(done)
			mctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), resultsTimeout)
			defer cancel()
			res, err := s.cfg.Results(mctx)
			s.resultsMu.Lock()
			defer s.resultsMu.Unlock()
			s.results, s.resultsErr, s.measured, s.measuring = res, err, ended, nil
		}()
	}
	done := s.measuring
	s.resultsMu.Unlock()
	if done != nil {
		wait := cmp.Or(s.cfg.ResultsWait, DefaultResultsWait)
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
		case <-ctx.Done():
		}
	}
	s.resultsMu.Lock()
	defer s.resultsMu.Unlock()
	return s.results, s.measured == ended, s.resultsErr
}

// studyTable is a table of the study: its room once created, and who is
// seated at it. Its mutex orders its creation.
type studyTable struct {
	mu     sync.Mutex
	room   string
	seated int
}

// Blob records of a study, under namespace "study:NAME".
const (
	studySeatKey  = "seat:"
	studyRoomKey  = "room:"
	studyWaveKey  = "wave:"
	studyCodeSize = 6
)

func tableKey(cond string, table int) string { return fmt.Sprintf("%s/%04d", cond, table) }

// studyCode is the study's short code: letters and digits a class can
// type, from the study's name and the server's secret.
func studyCode(k keys, name string) string {
	sum := hmac.New(sha256.New, k.secret)
	sum.Write([]byte("study\x00" + name))
	code := base32.StdEncoding.EncodeToString(sum.Sum(nil))
	return strings.NewReplacer("0", "K", "1", "M", "O", "P", "I", "Q").Replace(code[:studyCodeSize])
}

// OpenStudy opens a study live: the cohort link and code seat people at
// its conditions' tables from now on. A study opened before under the
// same name (a restart) goes on with the seats it gave.
func (p *Platform) OpenStudy(ctx context.Context, cfg StudyConfig) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	s := &liveStudy{cfg: cfg, code: studyCode(p.keys, cfg.Name), blobs: p.blobs, ns: "study:" + cfg.Name,
		byVisit: map[string]*studySeat{}, rooms: map[string]*studyTable{}, started: map[int]bool{}}
	if err := s.load(ctx); err != nil {
		return fmt.Errorf("study %s: %w", cfg.Name, err)
	}
	p.mu.Lock()
	p.study = s
	p.mu.Unlock()
	return nil
}

// CohortURL is the link everyone of the study's cohort opens, and Code
// its short code; empty without an open study (or before Run listens
// when there is no public URL).
func (p *Platform) CohortURL() (link, code string) {
	s := p.currentStudy()
	base := p.publicBase()
	if s == nil || base == "" {
		return "", ""
	}
	return base + "c/" + s.code, s.code
}

// StudyURL is the host's study dashboard.
func (p *Platform) StudyURL() string {
	if base := p.publicBase(); base != "" && p.currentStudy() != nil {
		return base + "study"
	}
	return ""
}

func (p *Platform) currentStudy() *liveStudy {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.study
}

// load reads the study's seats, rooms and waves from Blobs.
func (s *liveStudy) load(ctx context.Context) error {
	if s.blobs == nil {
		return nil
	}
	return s.blobs.EachBlob(ctx, s.ns, func(key string, v []byte) error {
		switch {
		case strings.HasPrefix(key, studySeatKey):
			var st studySeat
			if err := json.Unmarshal(v, &st); err != nil {
				return fmt.Errorf("seat %s: %w", key, err)
			}
			s.seats = append(s.seats, &st)
			s.byVisit[st.Visitor] = &st
			if st.Room != "" {
				s.table(st.Condition, st.Table).seated++
			}
		case strings.HasPrefix(key, studyRoomKey):
			cond, n := strings.TrimPrefix(key, studyRoomKey), 0
			name, num, _ := strings.Cut(cond, "/")
			fmt.Sscanf(num, "%d", &n)
			s.table(name, n).room = string(v)
		case strings.HasPrefix(key, studyPersonKey):
			n := 0
			fmt.Sscanf(strings.TrimPrefix(key, studyPersonKey), "%d", &n)
			if n >= len(s.people) {
				s.people = append(s.people, make([]string, n+1-len(s.people))...)
			}
			s.people[n] = string(v)
		case strings.HasPrefix(key, studyWaveKey):
			n := 0
			fmt.Sscanf(strings.TrimPrefix(key, studyWaveKey), "%d", &n)
			s.started[n] = true
		}
		return nil
	})
}

// table is the study's table of condition cond numbered n; s.mu held or
// loading.
func (s *liveStudy) table(cond string, n int) *studyTable {
	k := tableKey(cond, n)
	t, ok := s.rooms[k]
	if !ok {
		t = &studyTable{}
		s.rooms[k] = t
	}
	return t
}

// save keeps a record of the study.
func (s *liveStudy) save(ctx context.Context, key string, v []byte) error {
	if s.blobs == nil {
		return nil
	}
	if err := s.blobs.AddBlob(ctx, s.ns, key, v); err != nil {
		return fmt.Errorf("save study record %s: %w", key, err)
	}
	return nil
}

func (s *liveStudy) saveSeat(ctx context.Context, st studySeat) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return s.save(ctx, fmt.Sprintf("%s%08d", studySeatKey, st.N), b)
}

// errInviteUsed: a personal link seated another browser.
var errInviteUsed = errors.New("this personal link has been used in another browser: open it there, or ask your host")

// assign gives visitor a seat: the one given before, or the next
// arrival's. The seat is recorded before it is returned; the records of
// people arriving together share the store's transactions.
func (s *liveStudy) assign(ctx context.Context, visitor, person string, invite int, now time.Time) (studySeat, error) {
	s.mu.Lock()
	st, ok := s.byVisit[visitor]
	if !ok && invite > 0 && slices.ContainsFunc(s.seats, func(o *studySeat) bool { return o.Invite == invite }) {
		s.mu.Unlock()
		return studySeat{}, errInviteUsed
	}
	if !ok {
		n := s.nextSlot()
		cond, table, seat := s.cfg.seatOf(n)
		st = &studySeat{N: n, Visitor: visitor, Person: person, Condition: s.cfg.Conditions[cond].Name, Table: table, Seat: seat, Joined: now,
			Invite: invite, unsaved: true}
		s.seats = append(s.seats, st)
		s.byVisit[visitor] = st
	}
	seat, unsaved := *st, st.unsaved
	seat.unsaved = false
	s.mu.Unlock()
	if !unsaved {
		return seat, nil
	}
	if err := s.saveSeat(ctx, seat); err != nil {
		return studySeat{}, err // kept unsaved: the person's next try saves it
	}
	s.mu.Lock()
	st.unsaved = false
	s.mu.Unlock()
	return seat, nil
}

// nextSlot is the arrival number of the next seat to give: the one after
// the last given, past the seats of waves already started (a wave the
// host started before it was full keeps its empty seats empty, and
// whoever arrives later waits for the next wave). s.mu held.
func (s *liveStudy) nextSlot() int {
	n := 0
	for _, st := range s.seats {
		n = max(n, st.N+1)
	}
	for {
		if _, wave, _ := s.cfg.seatOf(n); !s.started[wave] {
			return n
		}
		n++
	}
}

// condition is the study's condition named name.
func (s *liveStudy) condition(name string) StudyCondition {
	for _, c := range s.cfg.Conditions {
		if c.Name == name {
			return c
		}
	}
	return StudyCondition{}
}
