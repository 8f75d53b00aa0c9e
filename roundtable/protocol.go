package roundtable

import (
	"cmp"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Speakers says who may act in a phase of a schedule.
type Speakers string

// Speaker policies. Random choices are drawn from the table's seed, the
// round and the step, and recorded in PhaseOpened, so a replay never draws.
const (
	SpeakEveryone  Speakers = "everyone"     // every participant
	SpeakRandom    Speakers = "random-other" // one random participant other than the last speaker
	SpeakAllButOne Speakers = "all-but-last" // everyone but the last speaker
	SpeakPair      Speakers = "pair"         // a sampled pair i -> j: i acts, addressing j
	SpeakBoth      Speakers = "pair-both"    // both of the round's pair act, each addressing the other
	SpeakListener  Speakers = "listener"     // j of the round's pair
	SpeakOne       Speakers = "random-one"   // one participant drawn from all (the marginal of j in a random pair)
	// SpeakInTurn is Sentimental Agents' ordered engagement: every
	// participant in seat order, one at a time (the step opens once for
	// each), each seeing the messages of those before it (message phases).
	SpeakInTurn Speakers = "in-turn"
)

// Scale is what a survey phase asks: one value per item (or one value when
// there are no items) between Min and Max, on multiples of Step above Min
// when Step is positive.
type Scale struct {
	Question string   `json:"question,omitempty"`
	Min      float64  `json:"min"`
	Max      float64  `json:"max"`
	Step     float64  `json:"step,omitempty"`
	Labels   []string `json:"labels,omitempty"` // names of Min, Min+Step, ... when Step is set
	Items    []string `json:"items,omitempty"`
}

// StanceScale is the default survey scale: the five stance levels of
// docs/protocol.md#stance-and-its-auditing, encoded 2 (strongly agree with the statement) to
// -2 (strongly agree with its complement).
func StanceScale(question string) *Scale {
	return &Scale{Question: question, Min: -2, Max: 2, Step: 1, Labels: []string{
		"strongly agree with the complement", "slightly agree with the complement", "neutral",
		"slightly agree with the statement", "strongly agree with the statement"}}
}

// Describe says in words what an answer must be: "on a scale from -2 to
// 2 in steps of 1 (labels, lowest first), one value for each of a, b".
func (s Scale) Describe() string {
	out := fmt.Sprintf("on a scale from %g to %g", s.Min, s.Max)
	if s.Step > 0 {
		out += fmt.Sprintf(" in steps of %g", s.Step)
	}
	if len(s.Labels) > 0 {
		out += " (" + strings.Join(s.Labels, "; ") + ", lowest first)"
	}
	if len(s.Items) > 0 {
		out += ", one value for each of " + strings.Join(s.Items, ", ")
	}
	return out
}

// Values returns how many values an answer holds.
func (s Scale) Values() int { return max(1, len(s.Items)) }

// Check reports the first value of an answer that is off the scale.
func (s Scale) Check(values []float64) error {
	if len(values) != s.Values() {
		return Errorf(Invalid, "the survey asks for %d value(s), the answer has %d", s.Values(), len(values))
	}
	for i, v := range values {
		if math.IsNaN(v) || v < s.Min || v > s.Max {
			return Errorf(Invalid, "%s: %g is off the scale %g..%g", s.item(i), v, s.Min, s.Max)
		}
		if s.Step > 0 {
			k := (v - s.Min) / s.Step
			if math.Abs(k-math.Round(k)) > 1e-9 {
				return Errorf(Invalid, "%s: %g is not on the scale's steps of %g from %g", s.item(i), v, s.Step, s.Min)
			}
		}
	}
	return nil
}

func (s Scale) item(i int) string {
	if i < len(s.Items) {
		return fmt.Sprintf("item %q", s.Items[i])
	}
	return "value"
}

// Step is one phase of a schedule.
type Step struct {
	Phase    Phase    `json:"phase"`
	Speakers Speakers `json:"speakers,omitempty"` // empty: everyone
	Scale    *Scale   `json:"scale,omitempty"`    // survey phases
}

// StopKind is how a protocol decides that its table is done.
type StopKind string

// Stop rules.
const (
	StopRounds      StopKind = "rounds"      // play every round
	StopAgreement   StopKind = "agreement"   // a vote accepts a proposal, or (with no vote) every survey answer of a round is the same
	StopConvergence StopKind = "convergence" // every survey answer moved less than the tolerance since the previous round
)

// StopRule is a protocol's stop rule. Every protocol also stops after
// Config.Rounds rounds.
type StopRule struct {
	Kind      StopKind `json:"kind,omitempty"`
	Tolerance float64  `json:"tolerance,omitempty"`
}

// Protocol is a table's schedule as data: the steps of every round, the
// steps played once after the last round, and the stop rule. A nil
// Protocol is RoundTable's message -> proposal -> vote with Config.EarlyStop.
type Protocol struct {
	Name   string            `json:"name,omitempty"`
	Round  []Step            `json:"round"`
	Final  []Step            `json:"final,omitempty"`
	Stop   StopRule          `json:"stop,omitzero"`
	Params map[string]string `json:"params,omitempty"` // the preset's parameters, for the record
}

// Step returns step i of the schedule, counting the round's steps first and
// then the final ones.
func (p *Protocol) Step(i int) (Step, bool) {
	switch {
	case i < 0:
		return Step{}, false
	case i < len(p.Round):
		return p.Round[i], true
	case i < len(p.Round)+len(p.Final):
		return p.Final[i-len(p.Round)], true
	}
	return Step{}, false
}

// Steps yields the schedule's steps in Step's order: the round's, then
// the final ones.
func (p *Protocol) Steps() iter.Seq[Step] {
	return func(yield func(Step) bool) {
		for _, st := range p.Round {
			if !yield(st) {
				return
			}
		}
		for _, st := range p.Final {
			if !yield(st) {
				return
			}
		}
	}
}

// InTurn reports whether the schedule's messages go one speaker at a time
// (SpeakInTurn): each shows as it comes, for the next speaker to read.
// Validate lets a schedule take turns in all its message steps or in none,
// so this holds for every message of the table.
func (p *Protocol) InTurn() bool {
	if p == nil {
		return false
	}
	for st := range p.Steps() {
		if st.Speakers == SpeakInTurn {
			return true
		}
	}
	return false
}

// Plays reports whether the schedule has a phase ph, in its rounds or at
// the end. A nil Protocol plays RoundTable's message, proposal and vote.
func (p *Protocol) Plays(ph Phase) bool {
	if p == nil {
		return ph == PhaseMessage || ph == PhaseProposal || ph == PhaseVote
	}
	is := func(s Step) bool { return s.Phase == ph }
	return slices.ContainsFunc(p.Round, is) || slices.ContainsFunc(p.Final, is)
}

// Items are the items the schedule's first survey with items rates, or
// none.
func (p *Protocol) Items() []string {
	for st := range p.Steps() {
		if st.Scale != nil && len(st.Scale.Items) > 0 {
			return st.Scale.Items
		}
	}
	return nil
}

// Validate reports the first problem with p, naming the field.
func (p *Protocol) Validate() error {
	if len(p.Round) == 0 {
		return Errorf(Invalid, "protocol.round: a round needs at least one phase")
	}
	if err := validateSteps("protocol.round", p.Round, false); err != nil {
		return err
	}
	if err := validateSteps("protocol.final", p.Final, true); err != nil {
		return err
	}
	if err := p.validateTurns(); err != nil {
		return err
	}
	switch p.Stop.Kind {
	case "", StopRounds, StopAgreement:
	case StopConvergence:
		if p.Stop.Tolerance <= 0 {
			return Errorf(Invalid, "protocol.stop.tolerance: convergence needs a positive tolerance")
		}
		if !slices.ContainsFunc(p.Round, func(s Step) bool { return s.Phase == PhaseSurvey }) {
			return Errorf(Invalid, "protocol.stop: convergence needs a survey phase in every round")
		}
	default:
		return Errorf(Invalid, "protocol.stop.kind: unknown rule %q (want %s, %s or %s)", p.Stop.Kind, StopRounds, StopAgreement, StopConvergence)
	}
	return nil
}

// validateTurns: messages taken in turn show as they come (Viewer.May), so
// a schedule that takes turns in one message step takes them in all; a
// message of another step would otherwise show before its phase closes.
func (p *Protocol) validateTurns() error {
	if !p.InTurn() {
		return nil
	}
	for i := range len(p.Round) + len(p.Final) {
		st, _ := p.Step(i)
		if st.Phase == PhaseMessage && st.Speakers != SpeakInTurn {
			return Errorf(Invalid, "%s.speakers: %q, but another message step of the schedule takes turns (%q): every message step must, or none",
				p.stepField(i), cmp.Or(st.Speakers, SpeakEveryone), SpeakInTurn)
		}
	}
	return nil
}

// stepField names step i of the schedule as Validate does.
func (p *Protocol) stepField(i int) string {
	if i < len(p.Round) {
		return fmt.Sprintf("protocol.round[%d]", i)
	}
	return fmt.Sprintf("protocol.final[%d]", i-len(p.Round))
}

func validateSteps(field string, steps []Step, final bool) error {
	proposed, paired := false, false
	for i, s := range steps {
		at := fmt.Sprintf("%s[%d]", field, i)
		if err := s.validate(at, proposed, paired || final); err != nil {
			return err
		}
		proposed = proposed || s.Phase == PhaseProposal
		paired = paired || s.Speakers == SpeakPair || s.Speakers == SpeakBoth
		if final && (s.Phase == PhaseProposal || s.Phase == PhaseVote) {
			return Errorf(Invalid, "%s: the final steps may be messages, private messages and surveys, not %s", at, s.Phase)
		}
	}
	return nil
}

func (s Step) validate(at string, proposed, paired bool) error {
	switch s.Phase {
	case PhaseMessage, PhasePrivate:
	case PhaseProposal, PhaseVote:
		if s.Speakers != "" && s.Speakers != SpeakEveryone {
			return Errorf(Invalid, "%s.speakers: everyone takes part in the %s phase", at, s.Phase)
		}
		if s.Phase == PhaseVote && !proposed {
			return Errorf(Invalid, "%s: a vote needs a proposal phase before it in the round", at)
		}
	case PhaseSurvey:
		if s.Scale == nil {
			return Errorf(Invalid, "%s.scale: a survey needs a scale", at)
		}
		if !(s.Scale.Min < s.Scale.Max) || s.Scale.Step < 0 {
			return Errorf(Invalid, "%s.scale: min %g, max %g and step %g do not make a scale", at, s.Scale.Min, s.Scale.Max, s.Scale.Step)
		}
	default:
		return Errorf(Invalid, "%s.phase: %q cannot be scheduled", at, s.Phase)
	}
	switch s.Speakers {
	case "", SpeakEveryone, SpeakRandom, SpeakAllButOne, SpeakPair, SpeakBoth, SpeakOne:
	case SpeakInTurn:
		if s.Phase != PhaseMessage {
			return Errorf(Invalid, "%s.speakers: %q orders the speakers of a message phase, not of the %s phase", at, s.Speakers, s.Phase)
		}
	case SpeakListener:
		if !paired {
			return Errorf(Invalid, "%s.speakers: %q needs a pair sampled by an earlier step of the round", at, s.Speakers)
		}
	default:
		return Errorf(Invalid, "%s.speakers: unknown policy %q", at, s.Speakers)
	}
	return nil
}

// ProtocolRoundTable names RoundTable's own schedule, message -> proposal
// -> vote: the schedule of a nil Protocol, and the name a table's schedule
// keeps when a survey is added to it (WithSelfReport).
const ProtocolRoundTable = "roundtable"

// Param returns a recorded preset parameter as a number, or def.
func (p *Protocol) Param(name string, def float64) float64 {
	if p == nil {
		return def
	}
	v, err := strconv.ParseFloat(p.Params[name], 64)
	if err != nil {
		return def
	}
	return v
}

// String names the protocol.
func (p *Protocol) String() string {
	if p == nil {
		return ProtocolRoundTable
	}
	if p.Name == "" {
		return fmt.Sprintf("custom (%d steps)", len(p.Round))
	}
	return p.Name
}

// Retopic returns p with every survey that asks about old (its question is
// old) asking about topic instead, so that a table started on another
// topic than its preset's surveys the topic it was started on. p is left
// as it is; nil stays nil, and so does a p without such a survey.
func (p *Protocol) Retopic(old, topic string) *Protocol {
	if p == nil || old == topic {
		return p
	}
	asks := func(s Step) bool { return s.Scale != nil && s.Scale.Question == old }
	if !slices.ContainsFunc(p.Round, asks) && !slices.ContainsFunc(p.Final, asks) {
		return p
	}
	q := p.clone()
	for _, steps := range [][]Step{q.Round, q.Final} {
		for i := range steps {
			if asks(steps[i]) {
				steps[i].Scale.Question = topic
			}
		}
	}
	return &q
}

// WithItems returns p with every survey that rates items rating items
// instead (a panel started with its own items); p is left as it is. It
// reports false when p has no such survey.
func (p *Protocol) WithItems(items []string) (*Protocol, bool) {
	rates := func(s Step) bool { return s.Scale != nil && len(s.Scale.Items) > 0 }
	if p == nil || !slices.ContainsFunc(p.Round, rates) && !slices.ContainsFunc(p.Final, rates) {
		return p, false
	}
	q := p.clone()
	for _, steps := range [][]Step{q.Round, q.Final} {
		for i := range steps {
			if rates(steps[i]) {
				steps[i].Scale.Items = slices.Clone(items)
			}
		}
	}
	return &q, true
}
