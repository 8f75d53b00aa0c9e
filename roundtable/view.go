package roundtable

import (
	"context"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// View is what one participant may see when it is asked to act: the task,
// the table, everything revealed so far, and its own private information.
// Other participants' private reasoning is never in it, nor, in sealed
// mode, the messages of a message phase that is still open.
type View struct {
	Table        string
	Title        string
	Brief        string // the task, as everyone sees it
	Private      string // what only this participant is told
	Rule         vote.Rule
	Mode         Mode
	Self         Participant
	Index        int // Self's position in table order
	Participants []Participant
	Round        int
	Rounds       int
	Phase        Phase
	History      []RoundRecord // the rounds before the current one (shared with later views: read only)
	Current      RoundRecord   // the current round so far, as Self may see it
	Candidates   []Candidate   // in the vote phase
	Decision     *Candidate    // the current decision, nil before the first
	Own          *Proposal     // Self's latest proposal, nil if none yet
	Seed         int64         // the table's seed, for reproducible agents
	// Under a Protocol: its name, who may act now (empty: everyone), the
	// participant Self must address in a paired step, and the open
	// survey's scale (outside a survey, the scale the schedule will ask
	// on, so a participant knows the question and the items).
	Protocol string
	Turn     []string
	To       string
	Scale    *Scale
	// Params are the protocol's preset parameters (Protocol.Params, e.g.
	// the panel's "alpha"), shared with other views: read only.
	Params map[string]string
	// Briefing is what the protocol tells a model-driven agent (its
	// registered Briefing); nil at RoundTable's own tables and under a
	// schedule no protocol registered.
	Briefing *Briefing
	// Decoded and DecodedDecision are Candidates and Decision as a Decoder
	// task decodes them (nil for other tasks, and for what does not
	// decode). Like History, they are shared with other views: read only.
	Decoded         []any
	DecodedDecision any
}

// View returns what participant id may see now. It costs the same in every
// round: earlier rounds are redacted once per viewer and shared (archived
// rounds are read from the store the first time).
func (t *Table) View(ctx context.Context, id string) (View, error) {
	return t.ViewFor(ctx, id, nil)
}

// HistoryLimiter is an Agent that reads only the last few ended rounds of
// its View (the facilitator reads the last one). HistoryRounds says how
// many at a table following protocol (its name, "" for the default
// deliberation); 0 means all. ViewFor builds its views with only those,
// outside the per-viewer cache, so that a long table costs it no more
// than a short one.
type HistoryLimiter interface {
	HistoryRounds(protocol string) int
}

// ViewFor returns what participant id may see now, as agent a reads it:
// View, or, for a HistoryLimiter, View with only the last rounds in
// History. a may be nil.
func (t *Table) ViewFor(ctx context.Context, id string, a Agent) (View, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.state
	self, ok := s.Participant(id)
	if !ok {
		return View{}, Errorf(NotFound, "%q is not at this table", id)
	}
	v := View{
		Table: s.ID, Title: s.Config.Title, Brief: BriefOf(t.task, s.Config), Rule: s.Config.Rule, Mode: s.Config.Mode,
		Self: self, Index: s.Index(id), Participants: slices.Clone(s.Participants),
		Round: s.Round, Rounds: s.Config.Rounds, Phase: s.Phase,
		Candidates: slices.Clone(s.Candidates), Decision: s.Decision, Seed: s.Config.Seed,
	}
	if pr := s.Config.Protocol; pr != nil {
		v.Protocol, v.Turn, v.To, v.Scale = pr.Name, slices.Clone(s.Turn), s.addressee(id), s.surveyScale()
		v.Params = pr.Params
		if b, ok := pr.Briefing(); ok {
			v.Briefing = &b
		}
	}
	limit := 0 // the whole history
	if hl, ok := a.(HistoryLimiter); ok {
		limit = max(hl.HistoryRounds(v.Protocol), 0)
	}
	if pb, ok := t.task.(PrivateBriefer); ok {
		v.Private = pb.PrivateBrief(v.Index)
	}
	if p, ok := s.Latest[id]; ok {
		v.Own = &p
	}
	h, err := t.history(ctx, id, limit)
	if err != nil {
		return View{}, err
	}
	v.History = h
	if c := s.Current(); c != nil {
		v.Current = c.visibleTo(id).sealedFor(id, s)
	}
	t.decodeCandidates(&v)
	return v, nil
}

// visibleTo returns r, a round that has ended, as participant id may see
// it (the visibility rule, Viewer.May): without other participants'
// reasoning.
func (r RoundRecord) visibleTo(id string) RoundRecord {
	return r.For(Viewer{Participant: id}, Stage{Round: r.Round + 1}).private(id)
}

// sealedFor returns r as participant id may see it at s's stage (the
// visibility rule, Viewer.May): what an open phase has not revealed yet is
// left out.
func (r RoundRecord) sealedFor(id string, s *State) RoundRecord {
	return r.For(Viewer{Participant: id}, s.Stage()).private(id)
}

// SoFar returns the rounds Self has seen: History, then Current. The
// slice is new; the rounds are shared (read only).
func (v View) SoFar() []RoundRecord {
	return append(slices.Clip(v.History), v.Current)
}

// Name returns the display name of participant id, or id itself.
func (v View) Name(id string) string {
	for _, p := range v.Participants {
		if p.ID == id {
			return p.Name
		}
	}
	return id
}

// LastReport returns Self's latest survey answer in v (the current round
// first, then the history from the latest round back), or nil before the
// first.
func (v View) LastReport() []float64 {
	for _, a := range v.Current.Surveys {
		if a.By == v.Self.ID {
			return a.Values
		}
	}
	for r := len(v.History) - 1; r >= 0; r-- {
		for _, a := range v.History[r].Surveys {
			if a.By == v.Self.ID {
				return a.Values
			}
		}
	}
	return nil
}
