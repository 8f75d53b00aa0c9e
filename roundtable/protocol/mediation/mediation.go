// Package mediation is caucus mediation after the Habermas Machine: each
// person writes an opinion privately; a mediator drafts candidate group
// statements from them; everyone ranks the candidates (Schulze by
// default); each person privately critiques the winner; the mediator
// revises it from the critiques; everyone ranks the winner and its
// revisions; the last winner is the group's statement. Every voter sees
// the candidates in an order of their own (roundtable.ParamOrder), and
// the mediator reads opinions and critiques shuffled, with no names
// (docs/protocol.md#mediation).
//
// The mediator is seated: Drafts seats that play the mediator's part
// (roundtable.PartMediate), each writing one candidate per round, as the
// reference samples each candidate from the model independently.
package mediation

import (
	"fmt"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Name is the protocol's name.
const Name = "mediation"

// DefaultDrafts is how many candidates the mediator writes when the
// table does not say: the reference writes 16; four keep a live ranking
// short enough for people to read.
const DefaultDrafts = 4

// MaxDrafts bounds the drafts a table may ask for.
const MaxDrafts = 16

// ParamDrafts records the drafts in the schedule's parameters.
const ParamDrafts = "drafts"

func init() { protocol.Register(definition{}) }

// definition is the registered protocol.
type definition struct{}

var (
	_ protocol.Headless = definition{}
	_ protocol.Briefer  = definition{}
	_ protocol.Live     = definition{}
	_ protocol.Analyst  = definition{}
	_ protocol.Modeller = definition{}
	_ protocol.Reporter = definition{}
	_ protocol.Ruled    = definition{}
)

// Rule implements protocol.Ruled: Schulze, as the reference.
func (definition) Rule() vote.Rule { return vote.Schulze }

// Tie implements protocol.Ruled: a ranking always picks a statement.
func (definition) Tie() vote.TiePolicy { return vote.TieRandom }

// Name implements protocol.Protocol.
func (definition) Name() string { return Name }

// Schedule implements protocol.Protocol.
func (definition) Schedule(s protocol.Settings) (*roundtable.Protocol, error) {
	if _, err := drafts(s); err != nil {
		return nil, err
	}
	return Preset(s), nil
}

// Own implements protocol.Protocol: the number of drafts.
func (definition) Own(s protocol.Settings) []string {
	if s.Drafts != 0 {
		return []string{"drafts"}
	}
	return nil
}

// drafts is the number of candidates s asks for, checked.
func drafts(s protocol.Settings) (int, error) {
	switch {
	case s.Drafts == 0:
		return DefaultDrafts, nil
	case s.Drafts < 2 || s.Drafts > MaxDrafts:
		return 0, fmt.Errorf("%s: %d drafts; the mediator writes 2 to %d candidates", s.Field("drafts"), s.Drafts, MaxDrafts)
	}
	return s.Drafts, nil
}

// Briefing implements protocol.Briefer.
func (definition) Briefing() roundtable.Briefing {
	return roundtable.Briefing{
		Setting: "people a mediator helps to agree on a statement the whole group can stand behind",
		Schedule: "A mediation of up to {rounds} rounds. In the first round you privately write your own opinion on the question " +
			"(only the mediator reads it, without your name); the mediator then writes candidate group statements and you rank them all, best first. " +
			"In every later round you privately write a critique of the current group statement (the decision): what it gets wrong or leaves out for you; " +
			"the mediator revises it, and you rank the statement and its revisions. The mediation ends when no revision beats the statement. " +
			"At the end you say how much you endorse the group's statement.",
	}
}

// EndorsementScale is the final survey: how much each person endorses
// the group's statement, 1 to 7.
func EndorsementScale() *roundtable.Scale {
	return &roundtable.Scale{Question: "How much do you endorse the group's statement?", Min: 1, Max: 7, Step: 1,
		Labels: []string{"not at all", "very little", "a little", "somewhat", "mostly", "strongly", "completely"}}
}

// Preset is the mediation: every round a private step (the opinion in
// round 1, a critique of the decision later), the mediator's candidates
// and a ranked vote over them (the decision, when there is one, is a
// candidate too); it stops when a round's vote keeps the decision, or
// after the table's rounds, and ends with the endorsement survey.
// Candidates are shuffled per voter.
func Preset(s protocol.Settings) *roundtable.Protocol {
	n, err := drafts(s)
	if err != nil {
		n = DefaultDrafts
	}
	return &roundtable.Protocol{
		Name: Name,
		Round: []roundtable.Step{
			{Phase: roundtable.PhasePrivate, Speakers: roundtable.SpeakEveryone},
			{Phase: roundtable.PhaseProposal, Speakers: roundtable.SpeakMediators},
			{Phase: roundtable.PhaseVote, Speakers: roundtable.SpeakEveryone},
		},
		Final:  []roundtable.Step{{Phase: roundtable.PhaseSurvey, Speakers: roundtable.SpeakEveryone, Scale: EndorsementScale()}},
		Stop:   roundtable.StopRule{Kind: roundtable.StopKept},
		Params: map[string]string{roundtable.ParamOrder: roundtable.OrderShuffled, roundtable.ParamQuorum: roundtable.QuorumHalf, ParamDrafts: strconv.Itoa(n)},
	}
}

// LiveTables implements protocol.Live: people and a mediator that writes
// three candidates, model-free (its seats say it stitches sentences and
// uses no model) or a language model on the first [[llm]] endpoint
// (mediation-llm). Rounds 2 is one critique round. A tie is broken by a
// seeded draw, as the reference does, so that a ranking always picks a
// statement.
func (definition) LiveTables() []protocol.LiveTable {
	q := "What should our town do about traffic in the old centre?"
	s := protocol.Settings{Question: q, Drafts: 3}
	table := func(name, title, kind string) protocol.LiveTable {
		return protocol.LiveTable{Name: name, Title: title, Task: roundtable.TaskSpec{Kind: "text", Topic: q},
			Rule: vote.Schulze, Tie: vote.TieRandom, Rounds: 2, EarlyStop: roundtable.StopNever, Schedule: Preset(s), Seats: MediatorSeats(3, kind)}
	}
	return []protocol.LiveTable{
		table(Name, "Mediation: agree on a group statement (model-free mediator)", KindStitch),
		table(Name+"-llm", "Mediation: agree on a group statement (language-model mediator)", KindStitch+":llm"),
	}
}

// MediatorSeats are n mediator seats played by agent kind ("stitch", or
// "stitch:llm[:ENDPOINT]" for a language model), "agent:mediation-1"
// onwards ("agent:mediation-llm-1" for a model); a model-free mediator
// says so in its name.
func MediatorSeats(n int, kind string) []roundtable.Participant {
	out := make([]roundtable.Participant, n)
	for i := range out {
		id, name := fmt.Sprintf("agent:%s-%d", Name, i+1), fmt.Sprintf("Mediator %d (model-free: stitches sentences)", i+1)
		if kind != KindStitch {
			id, name = fmt.Sprintf("agent:%s-llm-%d", Name, i+1), fmt.Sprintf("Mediator %d (language model)", i+1)
		}
		out[i] = roundtable.Participant{ID: id, Name: name, Kind: roundtable.Bot, Agent: kind,
			Parts: []roundtable.Part{roundtable.PartPropose, roundtable.PartMediate}}
	}
	return out
}
