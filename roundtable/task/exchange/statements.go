package exchange

import (
	"sync"
	"sync/atomic"
)

// maxMemoStatements bounds statementMemo: utility agents repeat their
// statements word for word (two wordings per agent), so a table of K of
// them needs 2K entries; once it is full (give or take the parses in
// flight) other texts are parsed each time.
const maxMemoStatements = 4096

// statementMemo remembers what ParseStatement read from a text. Every
// utility agent reads every other's statement in every round, K² parses of
// K weights per round; with the memo a round parses each statement once.
// The zero value is ready; it is safe for concurrent use.
type statementMemo struct {
	m sync.Map // text → memoStatement
	n atomic.Int64
}

type memoStatement struct {
	weights []float64 // shared: read only
	ok      bool
}

// parse is ParseStatement(text, k) for a memo used with one k.
func (c *statementMemo) parse(text string, k int) ([]float64, bool) {
	if v, ok := c.m.Load(text); ok {
		s := v.(memoStatement)
		return s.weights, s.ok
	}
	w, ok := ParseStatement(text, k)
	if c.n.Load() < maxMemoStatements {
		if _, loaded := c.m.LoadOrStore(text, memoStatement{w, ok}); !loaded {
			c.n.Add(1)
		}
	}
	return w, ok
}
