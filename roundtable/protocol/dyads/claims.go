package dyads

import (
	"maps"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// Claim is a topic with a known ground truth, in both framings (our own
// wording of the kind of topic Opinion dynamics uses).
type Claim struct{ Truth, Falsehood string }

// Claims are the built-in claims by name.
func Claims() map[string]Claim {
	return map[string]Claim{
		"flat-earth":      {"the Earth is a slightly flattened sphere", "the Earth is flat"},
		"global-warming":  {"the global climate is warming quickly", "global warming is a hoax invented by governments"},
		"moon-landing":    {"astronauts landed on the Moon in 1969", "the 1969 Moon landing was filmed in a studio"},
		"vaccines-autism": {"vaccines do not cause autism", "vaccines cause autism"},
	}
}

// ClaimNames are the built-in claims' names, sorted.
func ClaimNames() []string { return slices.Sorted(maps.Keys(Claims())) }

// Question is the claim a dyads table surveys: the built-in claim
// s.Claim in its framing (s.Framing "false" picks the falsehood), else
// s.Question.
func Question(s protocol.Settings) string {
	c, ok := Claims()[s.Claim]
	if !ok {
		return s.Question
	}
	text := c.Truth
	if s.Framing == "false" {
		text = c.Falsehood
	}
	// The paper puts "Theory XYZ" before every claim so that the wording
	// of a topic does not cue the model.
	return "Theory XYZ claims that " + text + "."
}
