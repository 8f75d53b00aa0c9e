package chatroom

import (
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// The persona updates of a chatroom's model agents (persona_update).
const (
	// PersonaSignal, the default, is Conversational bias's (section 3.1):
	// after each of its messages an agent's persona is rewritten at the
	// level the opinion presence and signal agents read in that message,
	// asked of a model (the seat's endpoint, or "signal:ENDPOINT").
	PersonaSignal = "signal"
	// PersonaLexicon reads the level with the offline keyword lexicon
	// instead of a model: no classifier calls, the same reading of the
	// same words every time.
	PersonaLexicon = "lexicon"
	// PersonaFixed keeps the assigned persona for the whole chat.
	PersonaFixed = "none"
)

// ParsePersonaUpdate reads a persona_update setting: its mode
// (PersonaSignal for ""), and the endpoint of "signal:ENDPOINT" ("" for
// the seat's own).
func ParsePersonaUpdate(s string) (mode, endpoint string, err error) {
	mode, endpoint, named := strings.Cut(strings.TrimSpace(s), ":")
	switch {
	case mode == "" && !named:
		return PersonaSignal, "", nil
	case mode == PersonaSignal && (!named || strings.TrimSpace(endpoint) != ""):
		return mode, strings.TrimSpace(endpoint), nil
	case (mode == PersonaLexicon || mode == PersonaFixed) && !named:
		return mode, "", nil
	}
	return "", "", fmt.Errorf("%q is not signal, signal:ENDPOINT, lexicon or none", s)
}

// checkPersonaUpdate reports a persona_update setting that does not parse.
func checkPersonaUpdate(s protocol.Settings) error {
	if _, _, err := ParsePersonaUpdate(s.PersonaUpdate); err != nil {
		return fmt.Errorf("%s: %v", s.Field("persona_update"), err)
	}
	return nil
}

// personaKeys are the figures of a chatroom whose model agents' personas
// followed the opinion signal (personaScalars).
var personaKeys = []string{"persona_updates", "updated_agents", "signal_missing"}

// personaScalars reads the personas a table's agents wrote with, from its
// log: the messages after which the author's persona moved to another
// level, the agents whose persona moved at least once, and the messages
// whose signal is missing (the classifier failed; the persona stayed).
// ok is false when no message was classified (fixed or offline personas).
func personaScalars(s *roundtable.State) (map[string]float64, bool) {
	updates, missing, classified := 0.0, 0.0, false
	moved := map[string]bool{}
	for _, r := range s.Rounds {
		for _, m := range r.Messages {
			p := m.Persona
			if p == nil || p.Signal == nil {
				continue
			}
			classified = true
			if p.Signal.Missing != "" {
				missing++
			}
			if p.Updated() {
				updates++
				moved[m.From] = true
			}
		}
	}
	if !classified {
		return nil, false
	}
	return map[string]float64{"persona_updates": updates, "updated_agents": float64(len(moved)), "signal_missing": missing}, true
}
