package roundtable

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Status is where a table is in its life.
type Status string

// Table statuses.
const (
	StatusCreated Status = "created" // participants may join; no phase has opened
	StatusRunning Status = "running"
	StatusEnded   Status = "ended"
)

// Message is a posted message as participants see it.
type Message struct {
	Seq  uint64   `json:"seq"`
	From string   `json:"from"`
	To   []string `json:"to,omitempty"`
	Text string   `json:"text"`
	// Private is set on a message of the private phase.
	Private bool `json:"private,omitempty"`
	// Self is the author's mental model of self stated with the message;
	// only its author sees it.
	Self *SelfModel `json:"self_model,omitempty"`
	// Persona is the author's chatroom persona when it wrote the message
	// and the opinion signal read in it; only its author sees it.
	Persona *OpinionPersona `json:"persona,omitempty"`
}

// ProposalRecord is a proposal made in a round; Reasoning is private to its
// author.
type ProposalRecord struct {
	By        string   `json:"by"`
	Proposal  Proposal `json:"proposal"`
	Reasoning string   `json:"reasoning,omitempty"`
}

// Failure is a failed agent action.
type Failure struct {
	Participant string `json:"participant"`
	Phase       Phase  `json:"phase"`
	Kind        string `json:"kind"`
	Reason      string `json:"reason"`
}

// Tally is the recorded outcome of a vote.
type Tally struct {
	Rule         vote.Rule              `json:"rule"`
	Winner       string                 `json:"winner,omitempty"`
	Totals       map[string]json.Number `json:"totals"`
	Tied         []string               `json:"tied,omitempty"`
	Ranking      []string               `json:"ranking,omitempty"`
	Ballots      []vote.Ballot          `json:"ballots,omitempty"`
	Rejected     []vote.Rejection       `json:"rejected,omitempty"`
	Counted      int                    `json:"counted"`
	Abstained    int                    `json:"abstained"`
	Participants int                    `json:"participants"`
	Reason       string                 `json:"reason,omitempty"`
}

// RoundRecord is everything that happened in one round.
type RoundRecord struct {
	Round      int              `json:"round"`
	Messages   []Message        `json:"messages,omitempty"`
	Proposals  []ProposalRecord `json:"proposals,omitempty"`
	Skipped    []string         `json:"skipped,omitempty"`
	Failures   []Failure        `json:"failures,omitempty"`
	Candidates []Candidate      `json:"candidates,omitempty"`
	Rejected   []vote.Rejection `json:"rejected,omitempty"`
	Tally      *Tally           `json:"tally,omitempty"`
	Decision   *Candidate       `json:"decision,omitempty"` // in force after the round
	Usage      map[string]Usage `json:"usage,omitempty"`    // per participant
	Surveys    []SurveyAnswer   `json:"surveys,omitempty"`  // private to their authors
	Pair       []string         `json:"pair,omitempty"`     // the pair sampled for the round
}

// State is a table's state: the fold of its events. The zero State is a
// table that does not exist yet; its first event must be TableCreated.
type State struct {
	ID           string        `json:"id"`
	Config       Config        `json:"config"`
	Created      time.Time     `json:"created"`
	Started      time.Time     `json:"started,omitzero"` // when a waiting table started (TableStarted)
	Updated      time.Time     `json:"updated"`
	Seq          uint64        `json:"seq"`
	Status       Status        `json:"status"`
	Participants []Participant `json:"participants"`
	Left         []string      `json:"left,omitempty"`
	Round        int           `json:"round"`
	Phase        Phase         `json:"phase"`
	Deadline     time.Time     `json:"deadline,omitzero"`
	Step         int           `json:"step,omitempty"` // schedule step of the open phase, under a Protocol
	Turn         []string      `json:"turn,omitempty"` // who may act in the open phase; empty: everyone
	// Spoken is who has had a turn so far in the open step when its
	// speakers take turns (SpeakInTurn), in order: the current speaker last.
	Spoken     []string               `json:"spoken,omitempty"`
	Closed     bool                   `json:"closed,omitempty"` // Phase has closed; the next has not opened yet
	Acted      map[string]bool        `json:"acted,omitempty"`
	Latest     map[string]Proposal    `json:"latest,omitempty"`
	Ballots    map[string]vote.Ballot `json:"ballots,omitempty"`
	Candidates []Candidate            `json:"candidates,omitempty"`
	Decision   *Candidate             `json:"decision,omitempty"`
	Rounds     []RoundRecord          `json:"rounds,omitempty"`
	Output     *Candidate             `json:"output,omitempty"`
	EndReason  string                 `json:"end_reason,omitempty"`
	Keys       KeySet                 `json:"key_set,omitempty"`
	// Past is what the moderator reads of earlier rounds; nil only in a
	// state decoded from a snapshot written before it was kept.
	Past *Past `json:"past,omitempty"`
	// Archived is how many leading rounds are stubs (their numbers only)
	// because their records are in the store, not in memory: a live table
	// keeps the rounds in progress, and Table.Rounds reads the others. It
	// is never encoded; the fold leaves it alone.
	Archived int `json:"-"`
}

// UnmarshalJSON implements json.Unmarshaler: State's own encoding, and
// the keys of a state encoded before KeySet (a map of key to seq).
func (s *State) UnmarshalJSON(b []byte) error {
	type plain State
	v := struct {
		*plain
		Legacy map[string]uint64 `json:"keys"`
	}{plain: (*plain)(s)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	for k := range v.Legacy {
		s.Keys.Add(k)
	}
	return nil
}

// Past is what the moderator reads across rounds, kept up to date by the
// fold so that it never scans the rounds (which may be archived).
type Past struct {
	// Letters is the letter each proposal key had as a candidate (the
	// latest), Used every letter a candidate has had.
	Letters map[string]string `json:"letters,omitempty"`
	Used    map[string]bool   `json:"used,omitempty"`
	// Speaker is the author of the latest public message.
	Speaker string `json:"speaker,omitempty"`
}

// pastOf is the Past of rounds, for a state decoded without one.
func pastOf(rounds []RoundRecord) *Past {
	p := &Past{}
	for i := range rounds {
		p.candidates(rounds[i].Candidates)
		for _, m := range rounds[i].Messages {
			p.message(m)
		}
	}
	return p
}

func (p *Past) candidates(cs []Candidate) {
	for _, c := range cs {
		if p.Letters == nil {
			p.Letters, p.Used = map[string]string{}, map[string]bool{}
		}
		p.Letters[c.Key], p.Used[c.ID] = c.ID, true
	}
}

func (p *Past) message(m Message) {
	if !m.Private {
		p.Speaker = m.From
	}
}

func (p *Past) clone() *Past {
	if p == nil {
		return nil
	}
	return &Past{Letters: maps.Clone(p.Letters), Used: maps.Clone(p.Used), Speaker: p.Speaker}
}

// Participant returns the seat with the given ID and whether it is seated.
func (s *State) Participant(id string) (Participant, bool) {
	for _, p := range s.Participants {
		if p.ID == id {
			return p, true
		}
	}
	return Participant{}, false
}

// Index returns the position of participant id in table order, or -1.
func (s *State) Index(id string) int {
	return slices.IndexFunc(s.Participants, func(p Participant) bool { return p.ID == id })
}

// Current returns the record of the round in progress (nil before round 1).
func (s *State) Current() *RoundRecord {
	if s.Round == 0 || len(s.Rounds) < s.Round {
		return nil
	}
	return &s.Rounds[s.Round-1]
}

// Pending returns the participants that have not acted in the open phase, in
// table order.
func (s *State) Pending() []Participant {
	if s.Status != StatusRunning {
		return nil
	}
	var out []Participant
	for _, p := range s.Participants {
		if !s.Acted[p.ID] && s.HasTurn(p.ID) {
			out = append(out, p)
		}
	}
	return out
}

// Apply folds one event into the state. It first checks that the event
// can follow the log (see LogError): the moderator checks every event
// before it is recorded, and a damaged log must give an error, never a
// panic or a state the moderator could not have made.
func (s *State) Apply(e Event) error {
	if err := s.check(e); err != nil {
		return &LogError{Table: cmp.Or(s.ID, e.Table), Seq: e.Seq, Type: e.Type(), Err: err}
	}
	if err := s.apply(e); err != nil {
		return &LogError{Table: cmp.Or(s.ID, e.Table), Seq: e.Seq, Type: e.Type(), Err: err}
	}
	s.Seq = e.Seq
	s.Updated = e.Time
	if e.Key != "" {
		s.Keys.Add(e.Key)
	}
	return nil
}

func (s *State) apply(e Event) error {
	switch d := e.Data.(type) {
	case TableCreated:
		*s = State{ID: e.Table, Config: d.Config, Created: e.Time, Status: StatusCreated,
			Participants: slices.Clone(d.Config.Participants), Past: &Past{}}
	case ParticipantJoined:
		s.Participants = append(s.Participants, d.Participant)
	case ParticipantLeft:
		s.Participants = slices.DeleteFunc(s.Participants, func(p Participant) bool { return p.ID == d.ID })
		s.Left = append(s.Left, d.ID)
		delete(s.Acted, d.ID)
		delete(s.Ballots, d.ID)
	case TableStarted:
		s.started(e.Time, d)
	case PhaseOpened:
		s.openPhase(d)
	case MessagePosted:
		r := s.record(d.Round)
		r.Messages = append(r.Messages, Message{Seq: e.Seq, From: e.Actor, To: d.To, Text: d.Text, Private: d.Private, Self: d.Self, Persona: d.Persona})
		s.past().message(r.Messages[len(r.Messages)-1])
		s.acted(e.Actor, d.Usage)
	case SurveyAnswered:
		r := s.record(d.Round)
		r.Surveys = append(r.Surveys, SurveyAnswer{By: e.Actor, Values: d.Values, Reason: d.Reason, Persona: d.Persona})
		s.acted(e.Actor, d.Usage)
	case ProposalMade:
		r := s.record(d.Round)
		rec := ProposalRecord{By: e.Actor, Proposal: d.Proposal, Reasoning: d.Reasoning}
		if i := slices.IndexFunc(r.Proposals, func(p ProposalRecord) bool { return p.By == e.Actor }); i >= 0 {
			r.Proposals[i] = rec // a changed proposal: the last one counts
		} else {
			r.Proposals = append(r.Proposals, rec)
		}
		s.latest()[e.Actor] = d.Proposal
		s.acted(e.Actor, d.Usage)
	case ProposalSkipped:
		r := s.record(d.Round)
		r.Skipped = append(r.Skipped, e.Actor)
		s.acted(e.Actor, d.Usage)
	case BallotCast:
		if s.Ballots == nil {
			s.Ballots = make(map[string]vote.Ballot)
		}
		s.Ballots[e.Actor] = d.Ballot
		s.acted(e.Actor, d.Usage)
	case BallotRejected:
		r := s.record(d.Round)
		r.Rejected = append(r.Rejected, vote.Rejection{Voter: e.Actor, Reason: d.Reason})
	case ActionFailed:
		r := s.record(d.Round)
		r.Failures = append(r.Failures, Failure{Participant: e.Actor, Phase: d.Phase, Kind: d.Kind, Reason: d.Reason})
		s.acted(e.Actor, d.Usage)
	case PhaseExtended:
		s.Deadline = d.Deadline
	case PhaseClosed:
		s.Acted, s.Turn = nil, nil
		s.Deadline = time.Time{}
		s.Closed = true
	case DecisionMade:
		r := s.record(d.Round)
		tally := d.Tally
		r.Tally = &tally
		s.Decision = d.Decision
		r.Decision = d.Decision
		s.Ballots = nil
	case TableEnded:
		s.Status = StatusEnded
		s.Output = d.Output
		s.EndReason = d.Reason
		s.Phase, s.Turn = PhaseNone, nil
		s.Acted = nil
		s.Deadline = time.Time{}
	case Withheld:
		s.withheld(e.Actor, d)
	default:
		return fmt.Errorf("unknown payload %T", e.Data)
	}
	return nil
}

func (s *State) openPhase(d PhaseOpened) {
	if s.Status != StatusRunning || d.Round != s.Round || d.Step != s.Step {
		s.Spoken = nil
	}
	s.Status = StatusRunning
	s.Round, s.Phase, s.Deadline = d.Round, d.Phase, d.Deadline
	s.Acted, s.Closed = nil, false
	if s.takesTurns(d.Step) {
		s.Spoken = append(s.Spoken, d.Turn...)
	}
	s.Step, s.Turn = d.Step, d.Turn
	if len(d.Pair) > 0 {
		s.record(d.Round).Pair = d.Pair
	}
	s.record(d.Round)
	if d.Phase == PhaseVote {
		s.Candidates = d.Candidates
		s.record(d.Round).Candidates = d.Candidates
		s.past().candidates(d.Candidates)
	}
}

// past returns s.Past, made from the rounds if s was decoded without it.
func (s *State) past() *Past {
	if s.Past == nil {
		s.Past = pastOf(s.Rounds)
	}
	return s.Past
}

// record returns the record of round r, growing the list as needed.
func (s *State) record(r int) *RoundRecord {
	for len(s.Rounds) < r {
		s.Rounds = append(s.Rounds, RoundRecord{Round: len(s.Rounds) + 1})
	}
	return &s.Rounds[r-1]
}

func (s *State) latest() map[string]Proposal {
	if s.Latest == nil {
		s.Latest = make(map[string]Proposal)
	}
	return s.Latest
}

func (s *State) acted(id string, u *Usage) {
	if s.Acted == nil {
		s.Acted = make(map[string]bool)
	}
	s.Acted[id] = true
	if u == nil || s.Round == 0 {
		return
	}
	r := s.record(s.Round)
	if r.Usage == nil {
		r.Usage = make(map[string]Usage)
	}
	r.Usage[id] = r.Usage[id].Add(*u)
}

// Replay folds events into a new State. A log that does not replay gives
// a *LogError naming the table, the event and what is wrong.
func Replay(events []Event) (*State, error) {
	s := &State{}
	for _, e := range events {
		if err := s.Apply(e); err != nil {
			return nil, err
		}
	}
	return s, nil
}
