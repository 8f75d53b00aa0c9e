package bot

import (
	"github.com/roundtable-ai/roundtable/roundtable"
)

// A phase closes early, as "everyone acted", only while a person is
// seated: agents alone answer at once, which would close every phase of
// a table the organiser started with bots alone before anyone could
// join; without a person a phase runs to its deadline (a phase without a
// deadline waits for a person). A person's turn is never closed by the
// bots: the phase waits for them until its deadline (waiting.go starts
// the table only once its people are there).

// hasPerson reports whether a human is seated.
func (lt *live) hasPerson() bool {
	found := false
	lt.table.Read(func(s *roundtable.State) { found = people(s) > 0 })
	return found
}
