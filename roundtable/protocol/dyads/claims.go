package dyads

import (
	"maps"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// Claim is one of Opinion dynamics' topics (appendix H): a claim with a
// known ground truth in its true and its false framing, and the category
// the paper's Table 2 groups it in.
type Claim struct {
	Truth, Falsehood string
	Category         string
}

// The topic categories of Opinion dynamics' Table 2.
const (
	Science     = "science"
	History     = "history"
	CommonSense = "common sense"
)

// Claims are the paper's 15 topics by name.
func Claims() map[string]Claim {
	return map[string]Claim{
		"flat-earth":        {"the Earth is an irregularly shaped ellipsoid rather than flat", "the Earth is flat", Science},
		"t-rex-humans":      {"the Tyrannosaurus Rex and humans did not co-exist on Earth at the same time", "the Tyrannosaurus Rex and humans co-existed on Earth at the same time", Science},
		"talk-to-the-dead":  {"it is not possible for humans to communicate with the dead", "it is possible for humans to communicate with the dead", Science},
		"palm-reading":      {"it is not possible to predict someone's future by looking at their palm characteristics", "it is possible to predict someone's future by looking at their palm characteristics", Science},
		"global-warming":    {"global warming is a real phenomenon and global climate is rapidly growing warmer", "global warming is a conspiracy by governments worldwide and is not a real phenomenon", Science},
		"moon-landing":      {"US astronauts have landed on the moon", "US astronauts never landed on the moon", History},
		"twin-towers":       {"the twin towers were not brought down from the inside by explosives during the 9/11 attack", "the twin towers were brought down from the inside by explosives during the 9/11 attack", History},
		"unemployment-2016": {"the US unemployment rate in 2016 was lower than 40%", "the US unemployment rate in 2016 was higher than 40%", History},
		"holocaust":         {"the Nazi government in Germany murdered approximately 6 million Jewish people during the second world war", "the Nazi government in Germany did not murder approximately 6 million Jewish people during the second world war", History},
		"obama-birthplace":  {"Barack Obama was born in Hawaii", "Barack Obama was born in Kenya", History},
		"bicycle-wheels":    {"a bicycle usually has two wheels", "a bicycle usually has four wheels", CommonSense},
		"washington-dc":     {"Washington DC is in the United States", "Washington DC is not in the United States", CommonSense},
		"brain-at-birth":    {"human beings are born with a brain", "human beings are not born with a brain", CommonSense},
		"fire-temperature":  {"fire is hot", "fire is cold", CommonSense},
		"sky-color":         {"on a clear sunny day, the sky is usually blue", "on a clear sunny day, the sky is usually red", CommonSense},
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
