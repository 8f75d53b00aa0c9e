package dyads

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// traits are what a dyads persona is drawn from (Opinion dynamics, section
// 2.1: name, initial belief, political leaning, age, gender, ethnicity,
// education, occupation): our own lists.
type traits struct {
	names, leanings, genders, ethnicities, education, jobs []string
}

func personaTraits() traits {
	return traits{
		names:       []string{"Maria", "James", "Aisha", "Wei", "Carlos", "Olga", "Kwame", "Priya", "Tom", "Fatima", "Lena", "Diego", "Hana", "Samuel", "Noor", "Ivan"},
		leanings:    []string{"liberal", "moderately liberal", "moderate", "moderately conservative", "conservative"},
		genders:     []string{"woman", "man", "non-binary person"},
		ethnicities: []string{"White", "Black", "Hispanic", "Asian", "Middle Eastern", "mixed-heritage"},
		education:   []string{"a high-school diploma", "some college", "a bachelor's degree", "a master's degree", "a doctorate", "a trade qualification"},
		jobs:        []string{"nurse", "electrician", "teacher", "software developer", "farmer", "accountant", "retail worker", "truck driver", "retired engineer", "student", "chef", "social worker"},
	}
}

// Persona is the role a language model plays at seat (1-based) of a
// dyads table: who it is, drawn from the seed, and its initial belief
// about the claim.
func Persona(seed int64, seat int, claim string, belief float64) (name, background string) {
	h := fnv.New64a()
	fmt.Fprintf(h, "dyads-persona|%d", seat)
	rng := rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	t := personaTraits()
	name = fmt.Sprintf("%s %d", pick(t.names), seat)
	background = fmt.Sprintf("Role play this person. You are %s, a %d-year-old %s %s with %s, working as a %s; politically %s. ",
		name, 18+rng.IntN(63), pick(t.ethnicities), pick(t.genders), pick(t.education), pick(t.jobs), pick(t.leanings))
	return name, background + beliefSentence(claim, belief)
}

// beliefSentence states a persona's belief about the claim.
func beliefSentence(claim string, x float64) string {
	return fmt.Sprintf("Your opinion on the statement %q: you %s with it (%s on a scale from -2, strongly disagree, to 2, strongly agree).",
		claim, levelWords(x), protocol.FormatStance(x))
}

// closedWorld is the closed-world instruction (no outside facts).
const closedWorld = " Throughout, you cannot look anything up or ask anyone outside this conversation: you form your belief from your initial belief and what the others write to you."

// levelWords says a stance as the verb phrase of "you ... with it".
func levelWords(x float64) string {
	if name := opinion.LevelName(x); name != "neutral" {
		return name
	}
	return "neither agree nor disagree"
}
