package export

import (
	"fmt"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Pseudonymize returns a copy of events in which every human participant
// (kind roundtable.Human in a TableCreated config or a ParticipantJoined) is
// "human-1", "human-2", ... in each table's keyed order (learnShuffled), as both ID and
// Name, in every structured field: the actor, participant records (whose
// Platform identity is cleared), message recipients, ballot voters,
// candidate proposers, and the ballots and rejections of tallies. Events of
// humans lose their idempotency Key, which is often a platform message ID.
// The same person keeps one pseudonym across all the tables in events.
// Agents keep their IDs and names.
//
// Free text is not scrubbed: a message, proposal, reason or title that
// mentions a person by name keeps the name. The input is not modified.
func Pseudonymize(events []roundtable.Event) []roundtable.Event {
	p := pseudonyms{}
	p.learnShuffled(events)
	for _, e := range events {
		switch d := e.Data.(type) {
		case roundtable.TableCreated:
			for _, part := range d.Config.Participants {
				p.learn(part)
			}
		case roundtable.ParticipantJoined:
			p.learn(d.Participant)
		}
	}
	out := make([]roundtable.Event, len(events))
	for i, e := range events {
		out[i] = p.event(e)
	}
	return out
}

// pseudonyms maps the IDs of humans to their pseudonyms. Names need no map:
// they appear only in participant records, which carry the ID too.
type pseudonyms map[string]string

func (p pseudonyms) learn(part roundtable.Participant) {
	if part.Kind != roundtable.Human {
		return
	}
	if _, ok := p[part.ID]; !ok {
		p[part.ID] = fmt.Sprintf("human-%d", len(p)+1)
	}
}

// id returns the pseudonym of a human's ID, or id itself for anyone else.
func (p pseudonyms) id(id string) string {
	if v, ok := p[id]; ok {
		return v
	}
	return id
}

// list maps id over a list of IDs, copying it.
func (p pseudonyms) list(ids []string) []string {
	if ids == nil {
		return nil
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = p.id(id)
	}
	return out
}

func (p pseudonyms) event(e roundtable.Event) roundtable.Event {
	if _, human := p[e.Actor]; human {
		e.Actor, e.Key = p.id(e.Actor), ""
	}
	e.Data = p.payload(e.Data)
	return e
}

func (p pseudonyms) payload(data roundtable.Payload) roundtable.Payload {
	switch d := data.(type) {
	case roundtable.TableCreated:
		d.Config.Participants = slices.Clone(d.Config.Participants)
		for i := range d.Config.Participants {
			d.Config.Participants[i] = p.participant(d.Config.Participants[i])
		}
		d.Config.Labels = p.labels(d.Config.Labels)
		return d
	case roundtable.ParticipantJoined:
		d.Participant = p.participant(d.Participant)
		return d
	case roundtable.ParticipantLeft:
		d.ID = p.id(d.ID)
		return d
	case roundtable.PhaseOpened:
		d.Candidates = p.candidates(d.Candidates)
		return d
	case roundtable.MessagePosted:
		d.To = p.list(d.To)
		return d
	case roundtable.BallotCast:
		d.Ballot.Voter = p.id(d.Ballot.Voter)
		return d
	case roundtable.BallotRejected:
		d.Ballot.Voter = p.id(d.Ballot.Voter)
		return d
	case roundtable.DecisionMade:
		d.Tally = p.tally(d.Tally)
		d.Decision = p.candidate(d.Decision)
		return d
	case roundtable.TableEnded:
		d.Output = p.candidate(d.Output)
		return d
	}
	return data // payloads that name no participant
}

// labels replaces label values that name a person (the bot records who
// started a table).
func (p pseudonyms) labels(in map[string]string) map[string]string {
	if in == nil {
		return nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		if _, human := p[v]; human {
			v = p.id(v)
		}
		out[k] = v
	}
	return out
}

func (p pseudonyms) participant(part roundtable.Participant) roundtable.Participant {
	if v, ok := p[part.ID]; ok && part.Kind == roundtable.Human {
		part.ID, part.Name, part.Platform = v, v, ""
	}
	return part
}

func (p pseudonyms) candidates(cs []roundtable.Candidate) []roundtable.Candidate {
	if cs == nil {
		return nil
	}
	out := make([]roundtable.Candidate, len(cs))
	for i, c := range cs {
		c.Proposers = p.list(c.Proposers)
		out[i] = c
	}
	return out
}

func (p pseudonyms) candidate(c *roundtable.Candidate) *roundtable.Candidate {
	if c == nil {
		return nil
	}
	cp := *c
	cp.Proposers = p.list(c.Proposers)
	return &cp
}

func (p pseudonyms) tally(t roundtable.Tally) roundtable.Tally {
	if t.Ballots != nil {
		t.Ballots = slices.Clone(t.Ballots)
		for i := range t.Ballots {
			t.Ballots[i].Voter = p.id(t.Ballots[i].Voter)
		}
	}
	if t.Rejected != nil {
		rej := make([]vote.Rejection, len(t.Rejected))
		for i, r := range t.Rejected {
			rej[i] = vote.Rejection{Voter: p.id(r.Voter), Reason: r.Reason}
		}
		t.Rejected = rej
	}
	return t
}
