package bot

import (
	"container/list"
	"slices"
	"sync"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// shelfSize is how many ended tables the service keeps for reading: a
// room's page goes on showing its table after the end, and a table is
// folded from the store once, not at every request, while it is among
// the last shelfSize ended tables read.
const shelfSize = 256

// shelf keeps the ended tables read lately, up to shelfSize, the least
// recently read leaving first. An ended table that is opened live again
// (someone acts on it) leaves the shelf, and a fold of it that was under
// way then is not shelved: it may miss what the live table does.
type shelf struct {
	mu      sync.Mutex
	byID    map[string]*list.Element // of *roundtable.Table
	order   *list.List               // most recently read first
	folding map[string][]*fold       // folds under way, by table
}

// fold is a table being folded from the store for the shelf.
type fold struct{ stale bool }

func newShelf() *shelf {
	return &shelf{byID: map[string]*list.Element{}, order: list.New(), folding: map[string][]*fold{}}
}

// get returns ended table id, if it is on the shelf.
func (s *shelf) get(id string) (*roundtable.Table, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok {
		return nil, false
	}
	s.order.MoveToFront(e)
	return e.Value.(*roundtable.Table), true
}

// fold says table id is about to be folded from the store; the returned
// func ends the fold, shelving t (when it is not nil: an ended table)
// unless the table was dropped meanwhile.
func (s *shelf) fold(id string) func(t *roundtable.Table) {
	f := &fold{}
	s.mu.Lock()
	s.folding[id] = append(s.folding[id], f)
	s.mu.Unlock()
	return func(t *roundtable.Table) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if rest := slices.DeleteFunc(s.folding[id], func(g *fold) bool { return g == f }); len(rest) > 0 {
			s.folding[id] = rest
		} else {
			delete(s.folding, id)
		}
		if t != nil && !f.stale {
			s.put(id, t)
		}
	}
}

// put shelves table t of ID id; the caller holds mu.
func (s *shelf) put(id string, t *roundtable.Table) {
	if e, ok := s.byID[id]; ok {
		e.Value = t
		s.order.MoveToFront(e)
		return
	}
	s.byID[id] = s.order.PushFront(t)
	if s.order.Len() > shelfSize {
		last := s.order.Back()
		s.order.Remove(last)
		delete(s.byID, last.Value.(*roundtable.Table).ID())
	}
}

// drop takes table id off the shelf, and makes the folds of it under way
// stale.
func (s *shelf) drop(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.folding[id] {
		f.stale = true
	}
	if e, ok := s.byID[id]; ok {
		s.order.Remove(e)
		delete(s.byID, id)
	}
}
