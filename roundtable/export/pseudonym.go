package export

import (
	"fmt"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Pseudonymize returns a copy of events in which every person — a human
// participant (kind roundtable.Human in a TableCreated config or a
// ParticipantJoined), and anyone else named in an actor field or a label
// that names a person, such as a starter who is not at the table — is
// "human-1", "human-2", ... in each table's keyed order (learnShuffled), as both ID and
// Name, in every structured field: the actor, participant records (whose
// Platform identity is cleared), message recipients, ballot voters,
// candidate proposers, the ballots and rejections of tallies, and the
// labels of PersonLabels. Events of people lose their idempotency Key,
// which is often a platform message ID. The same person keeps one
// pseudonym across all the tables in events. Agents keep their IDs and
// names.
//
// Free text is not scrubbed: a message, proposal, reason or title that
// mentions a person by name keeps the name. The input is not modified.
func Pseudonymize(events []roundtable.Event) []roundtable.Event {
	p := learnAll(events)
	out := make([]roundtable.Event, len(events))
	for i, e := range events {
		out[i] = p.event(e)
	}
	return out
}

// PersonLabels are the table labels whose value is a person's ID: the bot
// records who started a table.
var PersonLabels = []string{"starter"}

// pseudonyms maps the IDs of people to their pseudonyms. Names need no map:
// they appear only in participant records, which carry the ID too.
type pseudonyms struct {
	ids    map[string]string
	agents map[string]bool
}

// learnEvent learns the people and agents an event names, so pseudonyms
// follow the order in which people first appear.
func (p pseudonyms) learnEvent(e roundtable.Event) {
	switch d := e.Data.(type) {
	case roundtable.TableCreated:
		for _, part := range d.Config.Participants {
			p.learn(part)
		}
		for _, k := range PersonLabels {
			p.id(d.Config.Labels[k])
		}
	case roundtable.ParticipantJoined:
		p.learn(d.Participant)
	}
	p.id(e.Actor)
}

func (p pseudonyms) learn(part roundtable.Participant) {
	if part.Kind == roundtable.Bot {
		p.agents[part.ID] = true
		return
	}
	p.id(part.ID)
}

// id returns the pseudonym of a person's ID, giving the next one to a
// person not seen before; agents' IDs and "" (the moderator) stay as
// they are.
func (p pseudonyms) id(id string) string {
	if id == "" || p.agents[id] {
		return id
	}
	v, ok := p.ids[id]
	if !ok {
		v = fmt.Sprintf("human-%d", len(p.ids)+1)
		p.ids[id] = v
	}
	return v
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
	if e.Actor != "" && !p.agents[e.Actor] {
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
		d.Turn, d.Pair = p.list(d.Turn), p.list(d.Pair)
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

// labels replaces the values of PersonLabels and any value that is a
// person's ID.
func (p pseudonyms) labels(in map[string]string) map[string]string {
	if in == nil {
		return nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		if _, person := p.ids[v]; person || slices.Contains(PersonLabels, k) {
			v = p.id(v)
		}
		out[k] = v
	}
	return out
}

func (p pseudonyms) participant(part roundtable.Participant) roundtable.Participant {
	if part.Kind != roundtable.Bot {
		v := p.id(part.ID)
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
