package bot

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/export"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// start creates a table from a preset or the command's options, opens a
// thread for it, seats the starter and the bot agents, and opens round 1.
func (s *Service) start(ctx context.Context, ev *Event) (*Reply, error) {
	if !s.cfg.policy(ev.Platform).Allows(ev.User) {
		return nil, roundtable.Errorf(roundtable.Forbidden, "you may not start tables here (ask someone who may manage this channel)")
	}
	opt := s.options(ev.Options)
	cfg, agents, err := s.tableConfig(opt)
	if err != nil {
		return nil, err
	}
	starter := ParticipantID(ev.Platform, ev.User.ID)
	if !strings.EqualFold(opt["join"], "no") {
		cfg.Participants = append(cfg.Participants, human(ev))
	}
	votes, err := yesNo("facilitator_votes", opt["facilitator_votes"])
	if err != nil {
		return nil, err
	}
	for _, name := range agents {
		p, ok := s.cfg.Agents[name]
		if !ok {
			return nil, roundtable.Errorf(roundtable.Invalid, "there is no bot agent named %q (configured: %s)", name, strings.Join(s.agentNames(), ", "))
		}
		cfg.Participants = append(cfg.Participants, seatedBot(p, votes))
	}
	if err := checkStart(cfg); err != nil {
		return nil, err
	}
	task, err := s.deps.Task(cfg.Task, max(2, len(cfg.Participants)))
	if err != nil {
		return nil, roundtable.Errorf(roundtable.Invalid, "task: %v", err)
	}
	if err := s.checkSeats(cfg, task); err != nil {
		return nil, err
	}
	id := tableID(ev)
	if _, err := s.deps.Store.Load(ctx, id); err == nil {
		return ephemeral("This table was already started."), nil // a redelivered command
	}
	if err := s.own(ctx, id); err != nil {
		return nil, err
	}
	created := false
	defer func() {
		if !created { // another process may take the ID up (a redelivered command) without waiting for this one's lease
			s.release(context.WithoutCancel(ctx), id)
		}
	}()
	p := s.platforms[ev.Platform]
	thread, err := p.StartThread(ctx, ev.Channel, clip("roundtable: "+titleFor(cfg), 90))
	if err != nil {
		return nil, fmt.Errorf("start thread: %w", err)
	}
	labels := maps.Clone(cfg.Labels) // a preset's (a study's condition)
	if labels == nil {
		labels = map[string]string{}
	}
	maps.Copy(labels, map[string]string{labelPlatform: ev.Platform, labelChannel: thread, labelParent: ev.Channel, labelStarter: starter})
	if ev.Space != "" {
		labels[labelSpace] = ev.Space
	}
	cfg.Labels = labels
	cfg.Secret.Key = pseudonymKey()
	cfg.Provenance = s.provenance(cfg, task)
	obs := s.outbox(id)
	obs.bind(s.couriers[p.Name()], thread, s.briefer(task), s.newSentLog(id))
	t, err := roundtable.Create(ctx, obs.store(), s.deps.Clock, task, id, cfg)
	if err != nil {
		return nil, err
	}
	created = true
	if err := s.deps.Store.Bind(ctx, bindKey(ev.Platform, thread), id); err != nil {
		return nil, fmt.Errorf("bind table: %w", err)
	}
	// Commands typed in the channel itself reach its newest table (Slack
	// runs no slash commands inside threads).
	if err := s.deps.Store.Bind(ctx, latestKey(ev.Platform, ev.Channel), id); err != nil {
		return nil, fmt.Errorf("bind table: %w", err)
	}
	lt, err := s.build(t, p, thread)
	if err != nil {
		return nil, err
	}
	if lt, err = s.adopt(ctx, lt); err != nil {
		return nil, err
	}
	lt.begin(s.context())
	return ephemeral(createdReply(lt.table.Snapshot()) + lt.privateBrief(starter)), nil
}

// tableID derives the table's ID from the command's event ID, so a
// redelivered command finds the table it already made.
func tableID(ev *Event) string {
	h := sha256.Sum256([]byte(ev.Platform + "\x00" + ev.ID))
	return "t" + hex.EncodeToString(h[:5])
}

func human(ev *Event) roundtable.Participant {
	name := strings.TrimSpace(ev.User.Name)
	if name == "" {
		name = ev.User.ID
	}
	return roundtable.Participant{ID: ParticipantID(ev.Platform, ev.User.ID), Name: clipBytes(name, roundtable.MaxNameLen),
		Kind: roundtable.Human, Platform: ev.User.ID}
}

func titleFor(c roundtable.Config) string {
	if c.Title != "" {
		return c.Title
	}
	if c.Task.Topic != "" {
		return c.Task.Topic
	}
	return c.Task.Kind
}

func (s *Service) agentNames() []string { return slices.Sorted(maps.Keys(s.cfg.Agents)) }

// tableConfig reads a preset or the defaults, then the command's options.
func (s *Service) tableConfig(opt map[string]string) (roundtable.Config, []string, error) {
	cfg, agents := s.cfg.Defaults, s.cfg.DefaultAgents
	if name := opt["preset"]; name != "" {
		p, ok := s.cfg.Presets[name]
		if !ok {
			return cfg, nil, roundtable.Errorf(roundtable.Invalid, "there is no preset named %q", name)
		}
		cfg, agents = p.Config, p.Agents
	}
	cfg.Participants = append([]roundtable.Participant(nil), cfg.Participants...)
	if t := strings.TrimSpace(opt["topic"]); t != "" {
		topic := clip(t, 1000)
		cfg.Protocol = cfg.Protocol.Retopic(cfg.Task.Topic, topic) // a preset's survey of its topic asks about this one
		cfg.Task = roundtable.TaskSpec{Kind: "text", Topic: topic}
	}
	if cfg.Task.Kind == "" || (cfg.Task.Kind == "text" && cfg.Task.Topic == "") {
		return cfg, nil, roundtable.Errorf(roundtable.Invalid, "say what the table decides: topic:<question>, or preset:<name>")
	}
	if err := applyOptions(&cfg, opt); err != nil {
		return cfg, nil, err
	}
	if err := startSettings(&cfg, opt, s.deps.Clock.Now()); err != nil {
		return cfg, nil, err
	}
	if err := panelItems(&cfg, opt); err != nil {
		return cfg, nil, err
	}
	applyAudit(&cfg, opt)
	if a, ok := opt["agents"]; ok {
		agents = s.agentList(a)
		if len(agents) == 1 && (strings.EqualFold(agents[0], "none") || agents[0] == "-") {
			agents = nil // platforms that cannot send an empty option say none
		}
	}
	cfg = cfg.WithDefaults()
	return cfg, agents, cfg.ValidateNew()
}

func applyOptions(cfg *roundtable.Config, opt map[string]string) error {
	var err error
	if v := opt["rule"]; v != "" {
		if cfg.Rule, err = vote.ParseRule(v); err != nil {
			return roundtable.Errorf(roundtable.Invalid, "rule: %v", err)
		}
	}
	if v := opt["rounds"]; v != "" {
		if cfg.Rounds, err = strconv.Atoi(v); err != nil {
			return roundtable.Errorf(roundtable.Invalid, "rounds: %q is not a number", v)
		}
	}
	if v := opt["quorum"]; v != "" {
		if cfg.Quorum, err = strconv.Atoi(v); err != nil {
			return roundtable.Errorf(roundtable.Invalid, "quorum: %q is not a number", v)
		}
	}
	if v := opt["mode"]; v != "" {
		cfg.Mode = roundtable.Mode(strings.ToLower(v))
	}
	if v := opt["early_stop"]; v != "" {
		cfg.EarlyStop = roundtable.EarlyStop(v)
	}
	if v := opt["title"]; v != "" {
		cfg.Title = clip(v, 100)
	}
	if err := secretOption(cfg, opt); err != nil {
		return err
	}
	for name, dst := range map[string]*time.Duration{"message": &cfg.Durations.Message, "proposal": &cfg.Durations.Proposal, "vote": &cfg.Durations.Vote} {
		if v := opt[name]; v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || d > 24*time.Hour {
				return roundtable.Errorf(roundtable.Invalid, "%s: %q is not a duration such as 90s or 5m", name, v)
			}
			*dst = d
		}
	}
	return nil
}

// agentList reads the agents option: names separated by commas, or by
// spaces when there is no comma, so that "Trader 1, Trader 2" and
// "Scribe Critic" both work; a whole option that names an agent is that
// agent ("Trader 1").
func (s *Service) agentList(v string) []string {
	v = strings.TrimSpace(v)
	if _, ok := s.cfg.Agents[v]; ok {
		return []string{v}
	}
	if !strings.Contains(v, ",") {
		return strings.Fields(v)
	}
	var out []string
	for _, name := range strings.Split(v, ",") {
		if name = strings.TrimSpace(name); name != "" {
			out = append(out, name)
		}
	}
	return out
}

func (s *Service) stop(ctx context.Context, ev *Event, lt *live) (*Reply, error) {
	if err := s.manages(ctx, ev, lt); err != nil {
		return nil, err
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if err := lt.table.Stop(ctx, ParticipantID(ev.Platform, ev.User.ID), roundtable.EndStopped); err != nil {
		return nil, err
	}
	lt.finish(ctx, lt.table.Snapshot())
	return ephemeral("The table is stopped; its decision so far is its output."), nil
}

// closePhase closes the open phase now, as its deadline would.
func (s *Service) closePhase(ctx context.Context, ev *Event, lt *live) (*Reply, error) {
	if err := s.manages(ctx, ev, lt); err != nil {
		return nil, err
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	st := lt.table.Snapshot()
	if st.Status != roundtable.StatusRunning {
		return nil, roundtable.Errorf(roundtable.Conflict, "the table has no open phase to close")
	}
	lt.advance(ctx, st.Position(), roundtable.ClosedEarly)
	return ephemeral(fmt.Sprintf("You closed the %s phase of round %d.", st.Phase, st.Round)), nil
}

// export sends the table's log as a file, as the requester may see it now
// (roundtable.Visible): nothing an open phase still seals. Human
// participants are pseudonymised unless the starter (or a manager) asks for
// names:keep.
func (s *Service) export(ctx context.Context, ev *Event, lt *live) (*Reply, error) {
	up, ok := lt.platform.(Uploader)
	if !ok {
		return nil, roundtable.Errorf(roundtable.Invalid, "this platform cannot attach files; run `roundtable export --table %s` on the server", lt.table.ID())
	}
	format, err := export.ParseFormat(defaultTo(ev.Options["format"], "jsonl"))
	if err != nil {
		return nil, roundtable.Errorf(roundtable.Invalid, "format: %v", err)
	}
	keep := strings.EqualFold(ev.Options["names"], "keep")
	if keep {
		if ok, err := s.mayManage(ctx, ev, lt); err != nil || !ok {
			return nil, refuseUnless(err, "only whoever started this table can "+ManagerOnly(ev))
		}
	}
	events, err := s.deps.Store.Load(ctx, lt.table.ID())
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	// The requester sees the table as the visibility rule lets them see it
	// now; private reasoning only in an export with names of an ended table,
	// survey answers (self-reports) only in the organiser's.
	viewer := roundtable.Viewer{Participant: ParticipantID(ev.Platform, ev.User.ID), Researcher: keep, Organiser: keep}
	if !keep {
		viewer.Organiser = s.organises(ctx, ev, lt)
	}
	if err := export.Write(&buf, format, events, export.Options{Pseudonymize: !keep, Viewer: viewer}); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	name := fmt.Sprintf("%s.%s", lt.table.ID(), format)
	note := "Event log of table " + lt.table.ID()
	if !keep {
		note += " (people pseudonymised)"
	}
	if err := up.Upload(ctx, ev, name, buf.Bytes(), note); err != nil {
		return nil, fmt.Errorf("upload export: %w", err)
	}
	return nil, s.exportAudit(ctx, ev, up, lt.table.ID(), events, viewer)
}

func defaultTo(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// mayManage reports whether the event's user may manage the table (see
// manager).
func (s *Service) mayManage(ctx context.Context, ev *Event, lt *live) (bool, error) {
	var starter string
	lt.table.Read(func(st *roundtable.State) { starter = st.Config.Labels[labelStarter] })
	return s.manager(ctx, lt.platform, lt.channel, starter, ev.User)
}

// manager reports whether user u of platform p may manage a table in
// channel started by participant starter (stop it, export it with names:
// see ManagerOnly): whoever started it, a manager of the table's own
// channel (asked of the platform when it can tell, never trusting the
// rights an event carries from elsewhere), or someone a non-empty policy
// names. An empty policy lets anyone start tables, not stop other
// people's.
func (s *Service) manager(ctx context.Context, p Platform, channel, starter string, u User) (bool, error) {
	if starter == ParticipantID(p.Name(), u.ID) {
		return true, nil
	}
	if cr, ok := p.(ChannelRights); ok {
		m, err := cr.MayManage(ctx, channel, u.ID)
		if err != nil {
			return false, fmt.Errorf("rights of %s in %s: %w", u.ID, channel, err)
		}
		u.Manager = m
	}
	pol := s.cfg.policy(p.Name())
	return u.Manager || (!pol.Empty() && pol.Allows(u)), nil
}

// manages refuses, unless the event's user may manage the table (see
// mayManage), to do what ev asks: "only whoever started this table, or
// someone who may manage tables, can <ManagerOnly(ev)>".
func (s *Service) manages(ctx context.Context, ev *Event, lt *live) error {
	if ok, err := s.mayManage(ctx, ev, lt); err != nil || !ok {
		return refuseUnless(err, "only whoever started this table, or someone who may manage tables, can "+ManagerOnly(ev))
	}
	return nil
}

// ManagerOnly returns what ev asks that only someone who may manage its
// table may do ("stop it", "close a phase early", "extend a phase",
// "export it with names", "start it"), or "" when anyone at the table
// may. The service checks it on every platform; a platform that answers
// requests itself (the web channel) may refuse such an act before the
// service sees it, asking Tables.MayManage.
func ManagerOnly(ev *Event) string {
	switch ev.Kind {
	case KindCommand:
		switch {
		case ev.Command == "stop":
			return "stop it"
		case ev.Command == "close":
			return "close a phase early"
		case ev.Command == "extend":
			return "extend a phase"
		case ev.Command == "begin":
			return "start it"
		case ev.Command == "export" && strings.EqualFold(ev.Options["names"], "keep"):
			return "export it with names"
		}
	case KindAction:
		if r, err := parseRef(ev.Action); err == nil && r.Verb == verbStart {
			return "start it"
		}
	}
	return ""
}

// organises reports whether the event's user may manage the table (see
// mayManage); rights that cannot be checked count as none.
func (s *Service) organises(ctx context.Context, ev *Event, lt *live) bool {
	ok, err := s.mayManage(ctx, ev, lt)
	if err != nil {
		s.log.Warn("check rights for an export", "table", lt.table.ID(), "err", err)
	}
	return ok && err == nil
}

// refuseUnless is err when rights could not be checked, else a refusal.
func refuseUnless(err error, refusal string) error {
	if err != nil {
		return err
	}
	return roundtable.Errorf(roundtable.Forbidden, "%s", refusal)
}

// clipBytes shortens s to at most n bytes, on a character boundary.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
