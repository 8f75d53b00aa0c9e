package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"sort"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Tables is how the web channel reads the tables it shows: through the
// bot service that runs them (bot.Tables, which the service hands over
// with ReadTables), each as one viewer may see it (the one visibility
// rule, roundtable.Viewer). The web channel never opens the store.
type Tables interface {
	Lookup(ctx context.Context, channel string) (table string, ok bool, err error)
	State(ctx context.Context, channel string, v roundtable.Viewer) (*roundtable.State, error)
	Log(ctx context.Context, channel string, v roundtable.Viewer) ([]roundtable.Event, error)
	Annotations(ctx context.Context, channel string, v roundtable.Viewer) ([]roundtable.Annotation, error)
	Task(ctx context.Context, channel string) (roundtable.Task, error)
	Recorded(ctx context.Context, ev *bot.Event) (bool, error)
	MayManage(ctx context.Context, channel string, u bot.User) (bool, error)
	Ended(ctx context.Context) (map[string]time.Time, error)
	// Where says which process serves the table of a room, when several
	// share the store (Config.Shared).
	Where(ctx context.Context, channel string) (bot.Owner, error)
	Opening(ctx context.Context, channel string, u bot.User) (bot.Opening, error)
	Offer(preset string) ([]bot.BotOffer, error)
	PrivateBrief(ctx context.Context, channel string, u bot.User) (string, error)
	Panel(ctx context.Context, channel string, v roundtable.Viewer) (*bot.PanelResults, error)
}

var _ Tables = (*bot.Tables)(nil)

// errNoTable means a room has no table (yet).
var errNoTable = errors.New("no table in this room")

// state returns the table in a room as viewer v may see it now, as the
// bot keeps it (no log is read). Everything the web channel shows of a
// table's state comes through here. The state is shared: read only.
func (p *Platform) state(ctx context.Context, roomID string, v roundtable.Viewer) (*roundtable.State, error) {
	if p.tables == nil {
		return nil, errNoTable
	}
	st, err := p.tables.State(ctx, roomID, v)
	return st, roomErr(err, roomID)
}

// waits reports whether the table in roomID waits for its start.
func (p *Platform) waits(ctx context.Context, roomID string) bool {
	st, err := p.state(ctx, roomID, roundtable.Viewer{})
	return err == nil && st.Status == roundtable.StatusCreated
}

// tableLog returns the log of the table in a room as viewer v may see it
// now: what a download, the dashboard and the audit show of it.
func (p *Platform) tableLog(ctx context.Context, roomID string, v roundtable.Viewer) ([]roundtable.Event, error) {
	if p.tables == nil {
		return nil, errNoTable
	}
	evs, err := p.tables.Log(ctx, roomID, v)
	return evs, roomErr(err, roomID)
}

// roomErr is errNoTable for a room the bot knows no table of.
func roomErr(err error, roomID string) error {
	switch {
	case roundtable.ErrorCode(err) == roundtable.NotFound:
		return errNoTable
	case err != nil:
		return fmt.Errorf("the table of room %s: %w", roomID, err)
	}
	return nil
}

// viewerOf is who visitor v is to the visibility rule: the participant it
// is (if seated).
func viewerOf(v visitor) roundtable.Viewer {
	return roundtable.Viewer{Participant: participantID(v.ID)}
}

// stateView is the table as the room's side panel shows it.
type stateView struct {
	Table        string      `json:"table"`
	Title        string      `json:"title"`
	Status       string      `json:"status"`
	Round        int         `json:"round"`
	Rounds       int         `json:"rounds"`
	Phase        string      `json:"phase"`
	Rule         string      `json:"rule"`
	RuleText     string      `json:"rule_text"`
	Mode         string      `json:"mode"`
	Proposes     bool        `json:"proposes"` // the schedule has a proposal or a vote phase
	Mediated     bool        `json:"mediated"` // a mediator writes the candidates: people rank, never propose
	Writes       bool        `json:"writes"`   // the schedule has a message or a private phase (a questionnaire has neither)
	RemainingMS  int64       `json:"remaining_ms,omitempty"`
	Participants []seatView  `json:"participants"`
	Seated       bool        `json:"seated"`
	Decision     string      `json:"decision,omitempty"`
	Candidates   []candView  `json:"candidates,omitempty"`
	History      []roundView `json:"history,omitempty"`
	// Waiting is set while the table waits to start (status created).
	Waiting *waitView `json:"waiting,omitempty"`
	// Items are a panel's items to judge, each with its document, shown
	// before anyone speaks.
	Items []itemView `json:"items,omitempty"`
	// Brief is what only the viewer is told (an exchange seat's utility).
	Brief template.HTML `json:"brief,omitempty"`
}

type seatView struct {
	Name  string `json:"name"`
	Agent bool   `json:"agent,omitempty"`
	Acted bool   `json:"acted,omitempty"`
	You   bool   `json:"you,omitempty"`
	// Turn is set while the open phase's schedule lets this participant
	// act (everyone, unless a protocol draws speakers).
	Turn bool `json:"turn,omitempty"`
	// Parts are what a bot does at this table (speaks, proposes, votes,
	// judges); empty for a person, who plays every part.
	Parts []string `json:"parts,omitempty"`
}

type candView struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

type roundView struct {
	Round    int    `json:"round"`
	Winner   string `json:"winner,omitempty"`
	Decision string `json:"decision,omitempty"`
	Totals   string `json:"totals,omitempty"`
	Counted  int    `json:"counted"`
	Reason   string `json:"reason,omitempty"`
}

func viewState(s *roundtable.State, user string, now time.Time) *stateView {
	v := &stateView{Table: s.ID, Title: titleOf(s), Status: string(s.Status), Round: s.Round, Rounds: s.Config.Rounds,
		Phase: s.Phase.String(), Rule: string(s.Config.Rule), RuleText: s.Config.Rule.Describe(), Mode: string(s.Config.Mode),
		Proposes: s.Config.Protocol.Plays(roundtable.PhaseProposal) || s.Config.Protocol.Plays(roundtable.PhaseVote),
		Mediated: s.Config.Protocol.Mediated(),
		Writes:   s.Config.Protocol.Plays(roundtable.PhaseMessage) || s.Config.Protocol.Plays(roundtable.PhasePrivate)}
	if !s.Deadline.IsZero() && s.Status == roundtable.StatusRunning {
		v.RemainingMS = max(0, s.Deadline.Sub(now).Milliseconds())
	}
	me := participantID(user)
	for _, p := range s.Participants {
		seat := seatView{Name: p.Name, Agent: p.Kind == roundtable.Bot, Acted: s.Acted[p.ID], You: p.ID == me,
			Turn: s.Status == roundtable.StatusRunning && s.HasTurn(p.ID)}
		if seat.Agent {
			seat.Parts = partWords(s.Config.PartsAt(p))
		}
		v.Participants = append(v.Participants, seat)
		v.Seated = v.Seated || p.ID == me
	}
	if s.Decision != nil {
		v.Decision = s.Decision.Proposal.Text
	}
	v.Candidates = candidateList(s, me)
	v.Items = items(s)
	for _, r := range s.Rounds {
		if r.Tally != nil {
			v.History = append(v.History, viewRound(s, r))
		}
	}
	return v
}

// candidateList is the candidates of an open vote, with their text, in
// the order viewer me is shown them (roundtable.ParamOrder).
func candidateList(s *roundtable.State, me string) []candView {
	if s.Phase != roundtable.PhaseVote {
		return nil
	}
	var out []candView
	for _, c := range s.CandidatesFor(me) {
		out = append(out, candView{ID: c.ID, Text: c.Proposal.Text})
	}
	return out
}

// viewRound is round r of table s as the room and the dashboard list it:
// why it chose nothing in the bot's plain words.
func viewRound(s *roundtable.State, r roundtable.RoundRecord) roundView {
	t := r.Tally
	v := roundView{Round: r.Round, Winner: t.Winner, Counted: t.Counted, Totals: totals(t)}
	if t.Winner == "" {
		v.Reason = bot.NoWinnerWords(s, t)
	}
	if r.Decision != nil {
		v.Decision = r.Decision.Proposal.Text
	}
	return v
}

// totals writes a tally's totals as "A 2, B 1".
func totals(t *roundtable.Tally) string {
	ids := make([]string, 0, len(t.Totals))
	for id := range t.Totals {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id + " " + t.Totals[id].String()
	}
	return strings.Join(parts, ", ")
}

func titleOf(s *roundtable.State) string {
	switch {
	case s.Config.Title != "":
		return s.Config.Title
	case s.Config.Task.Topic != "":
		return s.Config.Task.Topic
	}
	return "Table " + s.ID
}

// participantID is how the bot seats a web user.
func participantID(user string) string { return bot.ParticipantID(Name, user) }

// ballotBudget returns the points a cumulative ballot shares out, and the
// candidates, when the open phase is a cumulative vote.
func ballotBudget(s *roundtable.State) (int, map[string]bool) {
	if s == nil || s.Phase != roundtable.PhaseVote || s.Config.Rule.Format() != vote.FormatPoints {
		return 0, nil
	}
	ids := map[string]bool{}
	for _, c := range s.Candidates {
		ids[c.ID] = true
	}
	return len(s.Candidates), ids
}

// critiqued is the group's statement a mediation's private step asks
// people to critique, in words for the form, or "" (docs/protocol.md#mediation).
func critiqued(s *roundtable.State) string {
	if s.Phase != roundtable.PhasePrivate || !s.Config.Protocol.Mediated() || s.Decision == nil {
		return ""
	}
	return "The group's statement so far: “" + s.Decision.Proposal.Text + "”"
}
