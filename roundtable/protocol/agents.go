package protocol

import (
	"hash/fnv"
	"math/rand/v2"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Rand is a model-free agent's source of randomness: drawn from the
// table's seed, the participant and a salt, so that a run, and a resumed
// run, draws the same.
func Rand(v roundtable.View, salt string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(v.Table + "|" + v.Self.ID + "|" + salt))
	return rand.New(rand.NewPCG(uint64(v.Seed), h.Sum64()))
}

// Claim is what a table asks about: its survey's question, else the
// task's brief.
func Claim(v roundtable.View) string {
	if v.Scale != nil && v.Scale.Question != "" {
		return v.Scale.Question
	}
	return v.Brief
}
