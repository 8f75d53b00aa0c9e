package experiment

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Options are what the experiment of condition c runs: its tables named
// STUDY-CONDITION-0001 and labelled with the study and the condition,
// with model as its language models (nil when it seats none).
func (s *Study) Options(c Condition, model Model) (Options, error) {
	r := c.Recipe
	rule, err := vote.ParseRule(r.Rule)
	if err != nil {
		return Options{}, keyed("rule", err)
	}
	tie, err := vote.ParseTiePolicy(r.Tie)
	if err != nil {
		return Options{}, keyed("tie", err)
	}
	timeout, err := time.ParseDuration(r.PhaseTimeout)
	if err != nil || timeout <= 0 {
		return Options{}, keyed("phase_timeout", fmt.Errorf("want a positive duration such as \"2m\", not %q", r.PhaseTimeout))
	}
	o := Options{Task: r.Task, Topic: r.Question, Preset: r.Preset, Data: s.path(r.Data), Agent: r.Agent,
		Agents: r.Seats, Rounds: r.Rounds, Runs: s.Replications, Seed: s.Seed, Rules: []vote.Rule{rule}, Tie: tie,
		EarlyStop: roundtable.EarlyStop(r.EarlyStop), Quorum: r.Quorum, PhaseTimeout: timeout, Humans: r.Humans,
		Name: s.Name + "-" + c.Name, Labels: map[string]string{LabelStudy: s.Name, LabelCondition: c.Name}, Model: model}
	if o.Protocol, err = r.settings(s); err != nil {
		return Options{}, err
	}
	for _, b := range r.Bots {
		o.Bots = append(o.Bots, b.seat())
	}
	if r.StandIn != nil {
		o.StandIn = r.StandIn.seat()
	}
	if o.Durations, err = r.Durations.parse(); err != nil {
		return Options{}, err
	}
	if len(r.Audit) > 0 {
		o.Audit = &roundtable.AuditSpec{Instruments: r.Audit, Statement: r.Question, Complement: r.Complement}
		if err := o.Audit.Validate(); err != nil {
			return Options{}, keyed("audit", errors.New(strings.TrimPrefix(roundtable.ErrorMessage(err), "audit: ")))
		}
	}
	return o, nil
}

// The labels a study's tables carry in their config.
const (
	LabelStudy       = "study"
	LabelCondition   = "condition"
	LabelReplication = "replication"
)

// settings are the recipe's protocol settings, the items' documents read
// from ItemDir.
func (r Recipe) settings(s *Study) (protocol.Settings, error) {
	ps := protocol.Settings{Key: "protocol", Protocol: r.Protocol, Items: r.Items, Alpha: r.Alpha, Tolerance: r.Tolerance,
		Roles: r.Roles, TwoWay: r.TwoWay, Stances: r.Stances, Weight: r.Weight, Mu: r.Mu, Epsilon: r.Epsilon,
		ConfirmationBias: r.ConfirmationBias, Control: r.Control, Memory: r.Memory, Framing: r.Framing, Claim: r.Claim,
		ClosedWorld: r.ClosedWorld, Complement: r.Complement, ContextChars: r.ContextChars, PersonaUpdate: r.PersonaUpdate}
	if r.Protocol != roundtable.ProtocolRoundTable {
		ps.Question = r.Question
	}
	if r.ItemDir == "" {
		return ps, nil
	}
	return protocol.ReadDocs(ps, s.path(r.ItemDir))
}

// path is p read from the study file's directory, when relative.
func (s *Study) path(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(s.Dir, p)
}

func (b Bot) seat() Seat {
	return Seat{Persona: roundtable.Participant{Name: b.Name, Background: b.Background, Goal: b.Goal, Stance: b.Stance},
		Model: ModelOptions{Endpoint: b.Endpoint, Model: b.Model, Temperature: b.Temperature, MaxTokens: b.MaxTokens,
			Memory: b.Memory, Window: b.Window, ContextChars: b.ContextChars}}
}

func (d Durations) parse() (roundtable.Durations, error) {
	var out roundtable.Durations
	for _, f := range []struct {
		key, text string
		dst       *time.Duration
	}{{"durations.message", d.Message, &out.Message}, {"durations.proposal", d.Proposal, &out.Proposal}, {"durations.vote", d.Vote, &out.Vote}} {
		if f.text == "" {
			continue
		}
		v, err := time.ParseDuration(f.text)
		if err != nil || v <= 0 {
			return out, keyed(f.key, fmt.Errorf("want a positive duration such as \"3m\", not %q", f.text))
		}
		*f.dst = v
	}
	return out, nil
}

// check checks c as a table recipe of s: its bots against its protocol
// and seats, then the experiment it makes (New). It returns the key at
// fault with the error.
func (c Condition) check(s *Study) (string, error) {
	r := c.Recipe
	if key, err := r.checkBots(); err != nil {
		return key, err
	}
	o, err := s.Options(c, refuseModel)
	if err == nil {
		_, err = New(o)
	}
	if err == nil {
		return "", nil
	}
	var ke *keyError
	if errors.As(err, &ke) {
		return ke.key, err
	}
	msg := err.Error()
	if roundtable.ErrorCode(err) == roundtable.Invalid {
		msg = roundtable.ErrorMessage(err)
	}
	msg = flagKeys.ReplaceAllStringFunc(msg, func(flag string) string { return studyKey(flag[2:]) })
	key, _, _ := strings.Cut(msg, ":")
	if strings.ContainsAny(key, " \"") {
		key = ""
	}
	return key, errors.New(msg)
}

// checkBots refuses personas at a protocol's table (the protocol makes
// its seats), memory settings of a bot there (the protocol's apply), and
// more bots than bot seats.
func (r Recipe) checkBots() (string, error) {
	bots := append([]Bot(nil), r.Bots...)
	if r.StandIn != nil {
		bots = append(bots, *r.StandIn)
	}
	if n := r.Seats - r.Humans; len(r.Bots) > n && n >= 0 {
		return "bot", keyed("bot", fmt.Errorf("%d bots for %d bot seats (seats %d, humans %d)", len(r.Bots), n, r.Seats, r.Humans))
	}
	for i, b := range bots {
		key := fmt.Sprintf("bot[%d]", i)
		if i == len(r.Bots) {
			key = "stand_in"
		}
		if r.Protocol == roundtable.ProtocolRoundTable {
			continue
		}
		for _, f := range []struct {
			name string
			set  bool
		}{{"name", b.Name != ""}, {"background", b.Background != ""}, {"goal", b.Goal != ""}, {"stance", b.Stance != ""},
			{"memory", b.Memory != ""}, {"window", b.Window != 0}, {"context_chars", b.ContextChars != 0}} {
			if f.set {
				return key + "." + f.name, keyed(key+"."+f.name, fmt.Errorf("the %s protocol makes its seats' personas and memory (set them on the condition, e.g. stances, memory, context_chars)", r.Protocol))
			}
		}
	}
	return "", nil
}

// flagKeys matches sim's flag names in an experiment's errors.
var flagKeys = regexp.MustCompile(`--[a-z][a-z-]*`)

// studyKey is the study file's key of sim's flag name.
func studyKey(flag string) string {
	switch flag {
	case "agents":
		return "seats"
	case "runs":
		return "replications"
	case "topic":
		return "question"
	}
	return strings.ReplaceAll(flag, "-", "_")
}

// keyError is an error in the value of a recipe's key.
type keyError struct {
	key string
	err error
}

func (e *keyError) Error() string { return e.key + ": " + e.err.Error() }
func (e *keyError) Unwrap() error { return e.err }

func keyed(key string, err error) error { return &keyError{key: key, err: err} }

// refuseModel stands in for the language models while a study is
// checked: nothing is run, so it is never asked.
func refuseModel(roundtable.Participant, roundtable.Task, ModelOptions) (roundtable.Agent, error) {
	return nil, errors.New("a study being checked runs no model")
}
