package roundtable

import (
	"math"
	"strings"
)

// OpinionPersona is the persona a chatroom agent stated when it wrote a
// message, and what the opinion signal classifier read in that message
// (Conversational bias, section 3.1; docs/protocol.md#chatroom). With
// persona updates on, the agent's next persona states the classified
// level (Next). Like a mental model of self it is its author's alone, and
// researchers' after the table ended.
type OpinionPersona struct {
	// Level is the stance (-2..2) the persona stated; Text is the persona
	// as the prompt stated it.
	Level float64 `json:"level"`
	Text  string  `json:"text"`
	// Signal is the classifier's reading of the message; nil when the
	// agent's persona is fixed (persona updates off).
	Signal *OpinionSignal `json:"signal,omitempty"`
}

// OpinionSignal is the opinion signal classifier's reading of one
// message: whether it expresses an opinion on the statement (the opinion
// presence agent) and at which level (the opinion signal agent).
type OpinionSignal struct {
	// Classifier names what classified: a model's labeler or the offline
	// lexicon.
	Classifier string `json:"classifier"`
	Present    bool   `json:"present"`
	// Level is the level the message expresses, when Present.
	Level float64 `json:"level"`
	// Missing says why there is no reading (the classifier failed or ran
	// out of time); the persona then stays as it was.
	Missing string `json:"missing,omitempty"`
}

// Next is the level the author's next persona states: the level the
// classifier read in the message when it read an opinion, else the
// level the message was written at.
func (p OpinionPersona) Next() float64 {
	if s := p.Signal; s != nil && s.Missing == "" && s.Present {
		return s.Level
	}
	return p.Level
}

// Updated reports whether the message moved its author's persona to
// another level.
func (p OpinionPersona) Updated() bool { return p.Next() != p.Level }

// Check reports what makes p unusable: a level or classified level off
// the five levels, or a persona text no message could hold.
func (p OpinionPersona) Check() error {
	if !stanceLevel(p.Level) {
		return Errorf(Invalid, "persona: level %g is not one of -2, -1, 0, 1, 2", p.Level)
	}
	if err := CheckText(p.Text); err != nil {
		return Errorf(Invalid, "persona: %s", ErrorMessage(err))
	}
	if s := p.Signal; s != nil {
		if strings.TrimSpace(s.Classifier) == "" {
			return Errorf(Invalid, "persona: the opinion signal names no classifier")
		}
		if s.Missing == "" && s.Present && !stanceLevel(s.Level) {
			return Errorf(Invalid, "persona: classified level %g is not one of -2, -1, 0, 1, 2", s.Level)
		}
	}
	return nil
}

func stanceLevel(x float64) bool { return x == math.Trunc(x) && x >= -2 && x <= 2 }

// clone is a deep copy of p (nil for nil).
func (p *OpinionPersona) clone() *OpinionPersona {
	if p == nil {
		return nil
	}
	c := *p
	if p.Signal != nil {
		s := *p.Signal
		c.Signal = &s
	}
	return &c
}

// LatestPersona is participant id's latest message persona in rounds,
// the latest round last (nil when none of its messages carries one).
func LatestPersona(rounds []RoundRecord, id string) *OpinionPersona {
	for i := len(rounds) - 1; i >= 0; i-- {
		ms := rounds[i].Messages
		for j := len(ms) - 1; j >= 0; j-- {
			if ms[j].From == id && ms[j].Persona != nil {
				return ms[j].Persona
			}
		}
	}
	return nil
}
