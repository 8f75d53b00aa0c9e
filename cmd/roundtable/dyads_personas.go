package main

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/questionnaire"
)

// The traits a dyads persona is drawn from (Opinion dynamics, section
// 2.1: name, initial belief, political leaning, age, gender, ethnicity,
// education, occupation). Our own lists, drawn from the run's seed.
var (
	personaNames       = []string{"Maria", "James", "Aisha", "Wei", "Carlos", "Olga", "Kwame", "Priya", "Tom", "Fatima", "Lena", "Diego", "Hana", "Samuel", "Noor", "Ivan"}
	personaLeanings    = []string{"liberal", "moderately liberal", "moderate", "moderately conservative", "conservative"}
	personaGenders     = []string{"woman", "man", "non-binary person"}
	personaEthnicities = []string{"White", "Black", "Hispanic", "Asian", "Middle Eastern", "mixed-heritage"}
	personaEducation   = []string{"a high-school diploma", "some college", "a bachelor's degree", "a master's degree", "a doctorate", "a trade qualification"}
	personaJobs        = []string{"nurse", "electrician", "teacher", "software developer", "farmer", "accountant", "retail worker", "truck driver", "retired engineer", "student", "chef", "social worker"}
)

// dyadsPersona is the role a language model plays in a dyads table: who it
// is, drawn from the seed, and its initial belief.
func dyadsPersona(seed int64, seat int, claim string, belief float64) (name, background string) {
	h := fnv.New64a()
	fmt.Fprintf(h, "dyads-persona|%d", seat)
	rng := rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	name = fmt.Sprintf("%s %d", pick(personaNames), seat)
	background = fmt.Sprintf("Role play this person. You are %s, a %d-year-old %s %s with %s, working as a %s; politically %s. ",
		name, 18+rng.IntN(63), pick(personaEthnicities), pick(personaGenders), pick(personaEducation), pick(personaJobs), pick(personaLeanings))
	return name, background + beliefSentence(claim, belief)
}

// beliefSentence states a persona's belief about the claim.
func beliefSentence(claim string, x float64) string {
	return fmt.Sprintf("Your opinion on the statement %q: you %s with it (%s on a scale from -2, strongly disagree, to 2, strongly agree).",
		claim, levelWords(x), formatStance(x))
}

// closedWorld is the closed-world instruction (no outside facts).
const closedWorld = " Throughout, you cannot look anything up or ask anyone outside this conversation: you form your belief from your initial belief and what the others write to you."

// seatPersona fills a model's seat of a protocol table: in dyads the
// drawn persona, in a chatroom Conversational bias's, elsewhere the stance; bias and the closed world are
// instructions appended to it.
func seatPersona(p *roundtable.Participant, f simFlags, seed int64, seat int, stance float64, bias string) {
	p.Background = beliefSentence(question(f), stance)
	if f.proto.Protocol == chatroom.Name || f.proto.Protocol == questionnaire.Name {
		p.Background = chatPersona(p.Name, f, stance)
	}
	if f.proto.Protocol == dyads.Name {
		p.Name, p.Background = dyadsPersona(seed, seat, question(f), stance)
		if f.proto.ClosedWorld {
			p.Background += closedWorld
		}
	}
	p.Background += bias
}

// levelWords says a stance as the verb phrase of "you ... with it".
func levelWords(x float64) string {
	if name := opinion.LevelName(x); name != "neutral" {
		return name
	}
	return "neither agree nor disagree"
}
