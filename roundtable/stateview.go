package roundtable

import (
	"context"
	"maps"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// StateFor returns the table's state as viewer v may see it now, by the
// visibility rule (Viewer.May): what the fold of Visible(log, v) holds,
// made from the moderator's state, which follows every event, without
// reading the log. The ended rounds are redacted once per table, as an
// onlooker sees them, and kept (read back from the store the first time
// if they are archived); a viewer who sees more of a round than an
// onlooker (its own reasoning, survey answers or private messages; the
// organiser's or a researcher's view) keeps its own copy of that round.
// The rest is redacted at each call.
//
// It holds less than the fold where the moderator's bookkeeping cannot
// tell what v may see: Keys is nil; Latest holds only the proposals of v's
// that v may see latest (no entry for someone whose latest proposal is
// still sealed, where the fold holds the one before); a round's Usage,
// which sums a participant's calls over the round's phases, is v's own
// until the round ends. Config.Secret has no key (Secrecy.Public). The
// ended rounds are shared with other callers: read only.
func (t *Table) StateFor(ctx context.Context, v Viewer) (*State, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.state
	v = s.reader(v)
	g := s.Stage()
	ended, err := t.endedFor(ctx, v, g)
	if err != nil {
		return nil, err
	}
	c := s.headFor(v, g)
	c.Rounds = ended
	for _, r := range s.Rounds[len(ended):] {
		r = r.seenBy(v, g)
		if !g.Ended {
			r.Usage = ownUsage(r.Usage, v.Participant)
		}
		c.Rounds = append(c.Rounds, r)
	}
	return c, nil
}

// reader is who v is to the visibility rule at s: someone who never sat
// at the table sees what an onlooker sees, and a researcher sees what
// anyone sees until the table ends; so each table keeps a view per
// participant, not per visitor.
func (s *State) reader(v Viewer) Viewer {
	if v.Participant != "" && s.Index(v.Participant) < 0 && !slices.Contains(s.Left, v.Participant) {
		v.Participant = ""
	}
	if s.Status != StatusEnded {
		v.Researcher = false
	}
	return v
}

// endedFor returns the ended rounds as v may see them at stage g: the
// onlooker's (kept for the table), or v's own copy from the first round in
// which v sees more, redacting only the rounds that ended since the last
// call (all again once the table has ended: a researcher then sees more).
// The slice is shared with later calls (clipped, so appending copies).
func (t *Table) endedFor(ctx context.Context, v Viewer, g Stage) ([]RoundRecord, error) {
	done := endedRounds(t.state)
	base, err := t.ended(ctx, &t.views.onlooker, Viewer{}, g, done, nil)
	if err != nil || v == (Viewer{}) {
		return base, err
	}
	if t.views.ended == nil {
		t.views.ended = map[Viewer]*endedView{}
	}
	c := t.views.ended[v]
	if c == nil {
		c = &endedView{}
		t.views.ended[v] = c
	}
	own, err := t.ended(ctx, c, v, g, done, base)
	if c.rounds == nil {
		return base, err // v sees no more than an onlooker
	}
	return own, err
}

// ended brings c, v's ended rounds, up to the first done rounds at stage
// g and returns them. With base (the onlooker's), c keeps no rounds while
// v sees no more of them than an onlooker, only how many it checked.
func (t *Table) ended(ctx context.Context, c *endedView, v Viewer, g Stage, done int, base []RoundRecord) ([]RoundRecord, error) {
	if c.final != g.Ended || c.n > done {
		*c = endedView{final: g.Ended} // the table ended, or went back (a rollback)
	}
	if c.n < done {
		rs, err := t.loadArchived(ctx, c.n+1, done)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			r = r.seenBy(v, g)
			if c.rounds == nil && base != nil && r.sameAs(base[c.n]) {
				c.n++
				continue
			}
			if c.rounds == nil && base != nil {
				c.rounds = slices.Clone(base[:c.n])
			}
			c.rounds = append(c.rounds, r)
			c.n++
		}
	}
	return slices.Clip(c.rounds), nil
}

// endedView is a viewer's ended rounds, redacted: the first n rounds, of
// which rounds holds a copy (nil while they are the onlooker's), and
// whether they were redacted after the table's end.
type endedView struct {
	rounds []RoundRecord
	n      int
	final  bool
}

// sameAs reports whether r, a round as some viewer sees it, shows no more
// than o, the same round as an onlooker sees it (a viewer sees at least
// what an onlooker does).
func (r RoundRecord) sameAs(o RoundRecord) bool {
	if len(r.Messages) != len(o.Messages) || len(r.Proposals) != len(o.Proposals) || len(r.Surveys) != len(o.Surveys) ||
		len(r.Skipped) != len(o.Skipped) || len(r.Rejected) != len(o.Rejected) || len(r.Failures) != len(o.Failures) {
		return false
	}
	for i, m := range r.Messages {
		if (m.Self == nil) != (o.Messages[i].Self == nil) || (m.Persona == nil) != (o.Messages[i].Persona == nil) {
			return false
		}
	}
	for i, p := range r.Proposals {
		if p.Reasoning != o.Proposals[i].Reasoning {
			return false
		}
	}
	for i, a := range r.Surveys {
		if a.Reason != o.Surveys[i].Reason || (a.Persona == nil) != (o.Surveys[i].Persona == nil) {
			return false
		}
	}
	return true
}

// headFor returns s without its rounds as v may see it at stage g. What
// the fold changes in place is copied; what it only replaces is shared.
func (s *State) headFor(v Viewer, g Stage) *State {
	c := *s
	c.Config.Secret = s.Config.Secret.Public()
	c.Participants = slices.Clone(s.Participants)
	c.Left = slices.Clone(s.Left)
	c.Acted = maps.Clone(s.Acted)
	c.Turn = slices.Clone(s.Turn)
	c.Candidates = slices.Clone(s.Candidates)
	c.Keys, c.Rounds, c.Archived = nil, nil, 0
	c.Past = s.Past.clone()
	c.Ballots = nil
	for voter, b := range s.Ballots {
		if v.May(g, Sight{Author: voter, Round: s.Round, Phase: PhaseVote}) {
			c.Ballots = mapWith(c.Ballots, voter, b)
		}
	}
	c.Latest = nil
	for by, p := range s.Latest {
		if cur := s.Current(); cur == nil || !slices.ContainsFunc(cur.Proposals, func(r ProposalRecord) bool { return r.By == by }) ||
			v.May(g, Sight{Author: by, Round: s.Round, Phase: PhaseProposal}) {
			c.Latest = mapWith(c.Latest, by, p)
		}
	}
	return &c
}

// seenBy returns r as viewer v may see it at stage g, by the rule Visible
// applies to the events r was folded from: what v may not see yet is left
// out, and reasoning v may not see is blanked. Usage is r's.
func (r RoundRecord) seenBy(v Viewer, g Stage) RoundRecord {
	may := func(x Sight) bool { return v.May(g, x) }
	r.Messages = kept(r.Messages, func(m Message) (Message, bool) {
		x := messageSight(m.From, r.Round, m.Private, m.To)
		if (m.Self != nil || m.Persona != nil) && !may(x.reasoning()) {
			m.Self, m.Persona = nil, nil
		}
		return m, may(x)
	})
	r.Proposals = kept(r.Proposals, func(p ProposalRecord) (ProposalRecord, bool) {
		x := Sight{Author: p.By, Round: r.Round, Phase: PhaseProposal}
		if !may(x.reasoning()) {
			p.Reasoning = ""
		}
		return p, may(x)
	})
	r.Skipped = kept(r.Skipped, func(id string) (string, bool) {
		return id, may(Sight{Author: id, Round: r.Round, Phase: PhaseProposal})
	})
	r.Rejected = kept(r.Rejected, func(x vote.Rejection) (vote.Rejection, bool) {
		return x, may(Sight{Author: x.Voter, Round: r.Round, Phase: PhaseVote})
	})
	r.Failures = kept(r.Failures, func(f Failure) (Failure, bool) {
		return f, may(Sight{Author: f.Participant, Round: r.Round, Phase: f.Phase})
	})
	r.Surveys = kept(r.Surveys, func(a SurveyAnswer) (SurveyAnswer, bool) {
		x := Sight{Author: a.By, Round: r.Round, Phase: PhaseSurvey, Private: true}
		if !may(x.reasoning()) {
			a.Reason, a.Persona = "", nil
		}
		return a, may(x)
	})
	return r
}

// kept returns a new slice of the elements of s that f keeps, as f
// returns them; nil when it keeps none.
func kept[T any](s []T, f func(T) (T, bool)) []T {
	var out []T
	for _, x := range s {
		if y, ok := f(x); ok {
			out = append(out, y)
		}
	}
	return out
}

// ownUsage returns the entry of participant id in u only.
func ownUsage(u map[string]Usage, id string) map[string]Usage {
	if x, ok := u[id]; ok && id != "" {
		return map[string]Usage{id: x}
	}
	return nil
}

func mapWith[K comparable, V any](m map[K]V, k K, v V) map[K]V {
	if m == nil {
		m = map[K]V{}
	}
	m[k] = v
	return m
}
