package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Tables wait for their people. A live table is created waiting
// (roundtable.StatusCreated: no phase open, no clock running, no turn
// drawn); people join and everyone sees who is in (the intro is edited on
// every join and leave). It starts by the trigger its organiser chose
// (roundtable.Start), recorded in its config:
//
//   - organiser (the default): whoever may manage it starts it: the
//     intro's Start button (an action whose ID is StartAction(table)),
//     or /roundtable begin in Discord and Slack;
//   - full: it starts by itself once Start.Seats seats (people's and
//     bots') are taken;
//   - at: it starts by itself at Start.At, or, if it still lacks the
//     people it needs then, as soon as they are seated. A restarted
//     service re-arms the time from the log.
//
// The organiser may start a full or timed table early. A table whose
// protocol needs people (roundtable.Config.PeopleNeeded: one at a panel,
// chatroom, dyads or questionnaire table, or the organiser's "people")
// refuses to start without them and says why. Starting records
// roundtable.TableStarted and opens round 1 in one transaction, so turns
// are drawn among everyone seated then. A task sized by its seats (the
// exchange economy: one agent and one good per seat) is sized then, by
// the seats taken: every seat, a person's or a bot's, has its utility.
//
// # The contract with the web channel
//
// Start options: the lobby's create form posts them as options of the
// start command (bot.Event.Options), beside topic, preset, rule, ...:
//
//	start              organiser | full | at (default organiser)
//	seats              full: the seats (people and bots) that start it
//	start_at           at: 2026-11-22T14:30 (the server's time zone),
//	                   14:30 (the next such time), an RFC 3339 time, or
//	                   a delay such as 10m
//	people             the fewest people it needs to start (default: the
//	                   protocol's need)
//	facilitator_votes  yes | no (default no): the Facilitator votes
//	item1_title, item1_document, ... item9_title, item9_document
//	                   a panel's items to judge, each a title and its
//	                   document (the document may be empty)
//
// A bad option is refused naming it ("start_at: ..."). Presets and the
// server's defaults may set the same options (Preset.Options,
// Config.Options); the command's win.
//
// Reading: Tables.Opening tells a table's status (waiting included), its
// seats with each bot's parts, its start trigger, whether the viewer may
// start it now and, if it cannot start yet, why; Tables.Offer lists the
// bots a preset offers with their parts; Tables.PrivateBrief is what only
// one person is told (an exchange seat's utility, known once the table
// starts); Tables.Panel gives a panel's rankings, each judge's sentiment
// trajectories and every survey answer the viewer may see.
//
// Starting: the web posts the action StartAction(table) as the organiser
// (bot.KindAction, Action set to it). The reply is ephemeral: "The table
// has started: round 1 is open ..." on success; a refusal (Refused set)
// says why otherwise: Forbidden for someone who may not manage it,
// Conflict for a table that has started or lacks its people.

// waiting reports whether s waits for its start (a planner's state may
// have folded TableStarted and not yet the round it opens).
func waiting(s *roundtable.State) bool {
	return s.Status == roundtable.StatusCreated && s.Started.IsZero()
}

// StartAction returns the ID of the action that starts waiting table
// id (the intro's Start button).
func StartAction(id string) string { return ref{Table: id, Verb: verbStart}.String() }

// startSettings reads the start options into cfg.Start; now is when the
// table is created (start_at is read from it).
func startSettings(cfg *roundtable.Config, opt map[string]string, now time.Time) error {
	st := cfg.Start
	if v := strings.TrimSpace(opt["start"]); v != "" {
		st.When = roundtable.StartWhen(strings.ToLower(v))
		if st.When == "organizer" {
			st.When = roundtable.StartOrganiser
		}
	}
	if v := strings.TrimSpace(opt["seats"]); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return roundtable.Errorf(roundtable.Invalid, "seats: %q is not a number of seats (1 or more)", v)
		}
		st.Seats = n
		if st.When == "" {
			st.When = roundtable.StartFull
		}
	}
	if v := strings.TrimSpace(opt["start_at"]); v != "" {
		at, err := StartTime(v, now)
		if err != nil {
			return roundtable.Errorf(roundtable.Invalid, "start_at: %v", err)
		}
		st.At = at
		if st.When == "" {
			st.When = roundtable.StartAt
		}
	}
	if v := strings.TrimSpace(opt["people"]); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return roundtable.Errorf(roundtable.Invalid, "people: %q is not a number of people (0 or more)", v)
		}
		st.People = n
	}
	if st.When != roundtable.StartFull {
		st.Seats = 0 // the seats of a form that chose another trigger
	}
	if st.When != roundtable.StartAt {
		st.At = time.Time{}
	}
	cfg.Start = st
	return st.Validate()
}

// StartTime reads a start time given at now: a delay ("10m", "1h30m"), a
// time of day ("14:30": the next one), a date and time in now's time
// zone ("2026-11-22T14:30" or "2026-11-22 14:30"), or an RFC 3339 time.
// A time that has passed is refused, as is one more than 30 days ahead.
func StartTime(v string, now time.Time) (time.Time, error) {
	var at time.Time
	if d, err := time.ParseDuration(v); err == nil {
		if d <= 0 {
			return at, fmt.Errorf("%q is not a delay after now", v)
		}
		at = now.Add(d)
	} else if t, err := time.ParseInLocation("15:04", v, now.Location()); err == nil {
		at = time.Date(now.Year(), now.Month(), now.Day(), t.Hour(), t.Minute(), 0, 0, now.Location())
		if !at.After(now) {
			at = at.AddDate(0, 0, 1)
		}
	} else if at, err = parseDateTime(v, now.Location()); err != nil {
		return at, fmt.Errorf("%q is not a time such as 14:30, 2026-11-22T14:30 or a delay such as 10m", v)
	}
	switch {
	case !at.After(now):
		return at, fmt.Errorf("%s has passed", at.Format("2 Jan 2006 15:04 MST"))
	case at.Sub(now) > maxStartDelay:
		return at, fmt.Errorf("%s is more than 30 days ahead", at.Format("2 Jan 2006 15:04 MST"))
	}
	return at, nil
}

// maxStartDelay bounds how far ahead a table may be set to start.
const maxStartDelay = 30 * 24 * time.Hour

func parseDateTime(v string, loc *time.Location) (time.Time, error) {
	var err error
	for _, layout := range []string{"2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02T15:04:05"} {
		var t time.Time
		if t, err = time.ParseInLocation(layout, v, loc); err == nil {
			return t, nil
		}
	}
	t, rerr := time.Parse(time.RFC3339, v)
	if rerr == nil {
		return t, nil
	}
	return t, err
}

// checkStart refuses, when a table is created, a start trigger its seats
// make impossible: a full table with fewer seats than are taken at once
// or than the people it needs and its bots.
func checkStart(cfg roundtable.Config) error {
	if cfg.Start.Trigger() != roundtable.StartFull {
		return nil
	}
	bots := 0
	for _, p := range cfg.Participants {
		if p.Kind == roundtable.Bot {
			bots++
		}
	}
	switch need := bots + cfg.PeopleNeeded(); {
	case cfg.Start.Seats < len(cfg.Participants):
		return roundtable.Errorf(roundtable.Invalid, "seats: %d seats are fewer than the %d taken when the table is made", cfg.Start.Seats, len(cfg.Participants))
	case cfg.Start.Seats < need:
		return roundtable.Errorf(roundtable.Invalid, "seats: %d seats leave no room for the %s the table needs beside its %s",
			cfg.Start.Seats, plural(cfg.PeopleNeeded(), "person", "people"), plural(bots, "bot", "bots"))
	}
	return nil
}

// startNow starts the table at the request of someone who may manage it
// (the intro's Start button, /roundtable begin).
func (lt *live) startNow(ctx context.Context, ev *Event) (*Reply, error) {
	if err := lt.svc.manages(ctx, ev, lt); err != nil {
		return nil, err
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if lt.status() != roundtable.StatusCreated {
		return nil, roundtable.Errorf(roundtable.Conflict, "%s", wordsStartedAlready)
	}
	var st roundtable.Start
	lt.table.Read(func(s *roundtable.State) { st = s.Config.Start })
	reason := string(roundtable.StartOrganiser)
	if st.Trigger() != roundtable.StartOrganiser {
		reason = roundtable.StartedEarly
	}
	if err := lt.startLocked(ctx, ParticipantID(ev.Platform, ev.User.ID), reason); err != nil {
		return nil, err
	}
	s := lt.table.Snapshot()
	return ephemeral(startedReply(s, lt.svc.deps.Clock.Now()) + lt.privateBrief(ParticipantID(ev.Platform, ev.User.ID))), nil
}

// startLocked starts the waiting table: it checks that the people it
// needs are seated, sizes a task sized by its seats, records the start
// and enters round 1. The caller holds mu.
func (lt *live) startLocked(ctx context.Context, actor, reason string) error {
	s := lt.table.Snapshot()
	if why := lackingPeople(s); why != "" {
		return roundtable.Errorf(roundtable.Conflict, "%s", why)
	}
	sized, err := lt.sizedTask(s)
	if err != nil {
		return err
	}
	if err := lt.table.Begin(ctx, actor, reason, sized); err != nil {
		return err
	}
	if sized != nil {
		if err := lt.reseat(); err != nil {
			return err
		}
	}
	lt.stopStartTimer()
	lt.enter(ctx)
	return nil
}

// lackingPeople says, in the table's words, why s cannot start for want
// of people, or "".
func lackingPeople(s *roundtable.State) string {
	need, have := s.Config.PeopleNeeded(), people(s)
	if have >= need {
		return ""
	}
	return wordsNeedPeople(s, need, have)
}

// people counts the people seated.
func people(s *roundtable.State) int {
	n := 0
	for _, p := range s.Participants {
		if p.Kind == roundtable.Human {
			n++
		}
	}
	return n
}

// sizedTask is the task of s built for the seats taken when its task is
// sized by its seats (roundtable.ParamSeats unset, the task Seated), or
// nil.
func (lt *live) sizedTask(s *roundtable.State) (roundtable.Task, error) {
	if _, ok := lt.table.Task().(Seated); !ok || s.Config.Task.Params[roundtable.ParamSeats] != "" {
		return nil, nil
	}
	spec := s.Config.Task
	task, err := lt.svc.deps.Task(spec, len(s.Participants))
	if err != nil {
		return nil, roundtable.Errorf(roundtable.Invalid, "the task cannot seat %d: %v", len(s.Participants), err)
	}
	return task, nil
}

// reseat builds the bots' agents again for the table's task, which was
// sized when it started. The caller holds mu.
func (lt *live) reseat() error {
	var seats []roundtable.Participant
	lt.table.Read(func(s *roundtable.State) { seats = append(seats, s.Participants...) })
	for _, p := range seats {
		if err := lt.seatAgent(p); err != nil {
			return err
		}
	}
	return nil
}

// startWhenDue starts the table by itself when its trigger has come: its
// seats are taken, or its time has passed (and it has the people it
// needs). It is called after a join and when the start time comes; the
// caller holds mu.
func (lt *live) startWhenDue(ctx context.Context) {
	s := lt.table.Snapshot()
	if s.Status != roundtable.StatusCreated {
		return
	}
	st := s.Config.Start
	var reason string
	switch {
	case st.Trigger() == roundtable.StartFull && len(s.Participants) >= st.Seats:
		reason = string(roundtable.StartFull)
	case st.Trigger() == roundtable.StartAt && !lt.svc.deps.Clock.Now().Before(st.At):
		reason = string(roundtable.StartAt)
	default:
		return
	}
	if lackingPeople(s) != "" {
		return // it starts once they are seated
	}
	if err := lt.startLocked(ctx, "", reason); err != nil {
		lt.svc.log.Error("start table", "table", lt.table.ID(), "trigger", reason, "err", err)
	}
}

// armStart arms the start time of a waiting timed table (when it is
// created, and again when the service resumes it). The caller holds mu.
func (lt *live) armStart(s *roundtable.State) {
	lt.stopStartTimer()
	if s.Status != roundtable.StatusCreated || s.Config.Start.Trigger() != roundtable.StartAt {
		return
	}
	wait := max(s.Config.Start.At.Sub(lt.svc.deps.Clock.Now()), 0)
	lt.startTimer = lt.svc.deps.Clock.AfterFunc(wait, func() {
		lt.mu.Lock()
		defer lt.mu.Unlock()
		if !lt.stopped {
			lt.startWhenDue(lt.svc.context())
		}
	})
}

// stopStartTimer disarms the start time; the caller holds mu.
func (lt *live) stopStartTimer() {
	if lt.startTimer != nil {
		lt.startTimer.Stop()
		lt.startTimer = nil
	}
}

// briefer says what a table's intro tells of its task: its brief
// (roundtable.BriefOf), for a task sized by its seats (Seated) sized by
// the seats taken so far, with a word that it is sized when the table
// starts.
func (s *Service) briefer(task roundtable.Task) func(*roundtable.State) string {
	_, sized := task.(Seated)
	return func(st *roundtable.State) string {
		if !sized {
			return roundtable.BriefOf(task, st.Config)
		}
		t := task
		if now, err := s.deps.Task(st.Config.Task, max(2, len(st.Participants))); err == nil {
			t = now
		}
		out := roundtable.BriefOf(t, st.Config)
		if st.Status == roundtable.StatusCreated && st.Config.Task.Params[roundtable.ParamSeats] == "" {
			out += "\n" + wordsSizedAtStart
		}
		return out
	}
}

// Opening is a table as its room shows it before and after it starts:
// who is in, with each bot's parts, how it starts, and whether the viewer
// may start it now.
type Opening struct {
	Table  string            `json:"table"`
	Status roundtable.Status `json:"status"` // created: waiting to start
	Start  roundtable.Start  `json:"start"`  // its trigger (When "" is organiser)
	// Started is when it started (zero while it waits).
	Started time.Time `json:"started,omitzero"`
	Seats   []Seat    `json:"seats"`
	// People counts the people seated; Needs is the fewest it needs to
	// start.
	People int `json:"people"`
	Needs  int `json:"needs"`
	// MayStart is set when the viewer may start it now (they may manage
	// it, and it waits); StartAction is the action that starts it.
	MayStart    bool   `json:"may_start"`
	StartAction string `json:"start_action,omitempty"`
	// Ready is set while it waits with the people it needs seated: a
	// start now would not be refused for want of them.
	Ready bool `json:"ready,omitempty"`
	// Waiting says, while it waits, how it starts (and what it lacks), in
	// the words of its intro.
	Waiting string `json:"waiting,omitempty"`
}

// Seat is a participant as the room lists it.
type Seat struct {
	ID    string            `json:"id"`
	Name  string            `json:"name"`
	Bot   bool              `json:"bot,omitempty"`
	Parts []roundtable.Part `json:"parts,omitempty"` // a bot's parts at this table
}

// Opening returns how the table in channel opens, as user u sees it.
func (t *Tables) Opening(ctx context.Context, channel string, u User) (Opening, error) {
	s, err := t.State(ctx, channel, t.Viewer(u.ID))
	if err != nil {
		return Opening{}, err
	}
	o := Opening{Table: s.ID, Status: s.Status, Start: s.Config.Start, Started: s.Started, People: people(s), Needs: s.Config.PeopleNeeded()}
	for _, p := range s.Participants {
		seat := Seat{ID: p.ID, Name: p.Name, Bot: p.Kind == roundtable.Bot}
		if seat.Bot {
			seat.Parts = s.Config.PartsAt(p)
		}
		o.Seats = append(o.Seats, seat)
	}
	if s.Status != roundtable.StatusCreated {
		return o, nil
	}
	o.Waiting, o.StartAction = startWords(s), StartAction(s.ID)
	why := lackingPeople(s)
	if o.Ready = why == ""; !o.Ready {
		o.Waiting += " " + why
	}
	o.MayStart, err = t.MayManage(ctx, channel, u)
	return o, err
}

// PrivateBrief returns what only user u is told at the table in channel
// (an exchange seat's utility, once the table has started), or "".
func (t *Tables) PrivateBrief(ctx context.Context, channel string, u User) (string, error) {
	id, err := t.id(ctx, channel)
	if err != nil {
		return "", err
	}
	lt, err := t.svc.tableByID(ctx, t.platform, id)
	if err != nil {
		return "", err
	}
	return lt.ownBrief(ParticipantID(t.platform, u.ID)), nil
}

// CheckStart reports what the start options opt (Preset.Options,
// Config.Options) would be refused for at a table configured as c, made
// at now; the error names the option.
func CheckStart(c roundtable.Config, opt map[string]string, now time.Time) error {
	if _, err := yesNo("facilitator_votes", opt["facilitator_votes"]); err != nil {
		return err
	}
	if err := startSettings(&c, opt, now); err != nil {
		return err
	}
	return panelItems(&c, opt)
}
