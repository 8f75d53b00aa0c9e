package roundtable

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Clone returns a deep copy of s: it shares no mutable memory (slice, map
// or pointer) with s, and encodes to the same JSON. It copies field by
// field rather than through JSON because bots clone the state on every
// phase change.
func (s *State) Clone() *State {
	c := *s
	c.Config = s.Config.clone()
	c.Participants = cloneEach(s.Participants, Participant.clone)
	c.Left = slices.Clone(s.Left)
	c.Acted = maps.Clone(s.Acted)
	c.Latest = cloneMap(s.Latest, Proposal.clone)
	c.Ballots = cloneMap(s.Ballots, cloneBallot)
	c.Candidates = cloneEach(s.Candidates, Candidate.clone)
	c.Decision = clonePtr(s.Decision, Candidate.clone)
	c.Rounds = cloneEach(s.Rounds, RoundRecord.clone)
	c.Output = clonePtr(s.Output, Candidate.clone)
	c.Keys = slices.Clone(s.Keys)
	c.Turn = slices.Clone(s.Turn)
	c.Spoken = slices.Clone(s.Spoken)
	c.Past = s.Past.clone()
	return &c
}

func (c Config) clone() Config {
	c.Task.Params = maps.Clone(c.Task.Params)
	c.Task.Private = maps.Clone(c.Task.Private)
	c.Participants = cloneEach(c.Participants, Participant.clone)
	c.Labels = maps.Clone(c.Labels)
	c.Protocol = clonePtr(c.Protocol, Protocol.clone)
	c.Audit = c.Audit.clone()
	c.Provenance = clonePtr(c.Provenance, Provenance.clone)
	return c
}

func (p Participant) clone() Participant {
	p.Parts = slices.Clone(p.Parts)
	return p
}

func (p Protocol) clone() Protocol {
	p.Round = cloneEach(p.Round, Step.clone)
	p.Final = cloneEach(p.Final, Step.clone)
	p.Params = maps.Clone(p.Params)
	return p
}

func (s Step) clone() Step {
	s.Scale = clonePtr(s.Scale, func(sc Scale) Scale {
		sc.Labels, sc.Items = slices.Clone(sc.Labels), slices.Clone(sc.Items)
		return sc
	})
	return s
}

func (p Proposal) clone() Proposal {
	p.Data = cloneRaw(p.Data)
	return p
}

func (c Candidate) clone() Candidate {
	c.Proposal = c.Proposal.clone()
	c.Proposers = slices.Clone(c.Proposers)
	return c
}

func (r RoundRecord) clone() RoundRecord {
	r.Messages = cloneEach(r.Messages, func(m Message) Message {
		m.To, m.Self, m.Persona = slices.Clone(m.To), m.Self.clone(), m.Persona.clone()
		return m
	})
	r.Proposals = cloneEach(r.Proposals, func(p ProposalRecord) ProposalRecord { p.Proposal = p.Proposal.clone(); return p })
	r.Skipped = slices.Clone(r.Skipped)
	r.Failures = slices.Clone(r.Failures)
	r.Candidates = cloneEach(r.Candidates, Candidate.clone)
	r.Rejected = slices.Clone(r.Rejected)
	r.Tally = clonePtr(r.Tally, Tally.clone)
	r.Decision = clonePtr(r.Decision, Candidate.clone)
	r.Usage = maps.Clone(r.Usage)
	r.Surveys = cloneEach(r.Surveys, func(a SurveyAnswer) SurveyAnswer {
		a.Values, a.Persona = slices.Clone(a.Values), a.Persona.clone()
		return a
	})
	r.Pair = slices.Clone(r.Pair)
	return r
}

func (t Tally) clone() Tally {
	t.Totals = maps.Clone(t.Totals)
	t.Tied = slices.Clone(t.Tied)
	t.Ranking = slices.Clone(t.Ranking)
	t.Ballots = cloneEach(t.Ballots, cloneBallot)
	t.Rejected = slices.Clone(t.Rejected)
	return t
}

func cloneBallot(b vote.Ballot) vote.Ballot {
	b.Scores = maps.Clone(b.Scores)
	b.Ranking = slices.Clone(b.Ranking)
	b.Points = maps.Clone(b.Points)
	b.Approve = slices.Clone(b.Approve)
	return b
}

// cloneRaw copies b, keeping nil nil and empty empty.
func cloneRaw(b json.RawMessage) json.RawMessage {
	if b == nil {
		return nil
	}
	return append(json.RawMessage{}, b...)
}

// cloneEach copies s with each element deep-copied by f; nil stays nil.
func cloneEach[T any](s []T, f func(T) T) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

func cloneMap[K comparable, V any](m map[K]V, f func(V) V) map[K]V {
	if m == nil {
		return nil
	}
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = f(v)
	}
	return out
}

func clonePtr[T any](p *T, f func(T) T) *T {
	if p == nil {
		return nil
	}
	v := f(*p)
	return &v
}
