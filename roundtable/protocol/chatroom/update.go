package chatroom

import (
	"fmt"
	"strings"

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
