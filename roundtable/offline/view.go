package offline

import (
	"hash/fnv"
	"math/rand/v2"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// heard returns the messages of the current round addressed to Self by
// others.
func heard(v roundtable.View) []roundtable.Message {
	var out []roundtable.Message
	for _, m := range v.Current.Messages {
		if m.From == v.Self.ID {
			continue
		}
		for _, to := range m.To {
			if to == v.Self.ID {
				out = append(out, m)
			}
		}
	}
	return out
}

// rng is a source drawn from the table's seed, Self and a salt.
func rng(v roundtable.View, salt string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(v.Table + "|" + v.Self.ID + "|" + salt))
	return rand.New(rand.NewPCG(uint64(v.Seed), h.Sum64()))
}
