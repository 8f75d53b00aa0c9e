package roundtable

import (
	"context"
	"slices"
)

// Decoder is implemented by tasks whose proposals carry structured data
// that agents read (an exchange allocation). The moderator decodes each
// phase's candidates and the current decision once, and every viewer of the
// phase gets the same values in View.Decoded and View.DecodedDecision, so a
// phase costs one decode per candidate rather than one per voter.
// Decode must be safe for concurrent use and must not keep p.
type Decoder interface {
	Decode(p Proposal) (any, error)
}

// viewCache holds what Table.View and Table.StateFor would otherwise
// rebuild for every viewer in every phase. Rounds before the current one never change, so each is
// redacted once per viewer and kept; decoded candidates are kept for the
// phase they belong to. The table's lock guards it; rollback drops it.
type viewCache struct {
	history  map[string][]RoundRecord // per viewer: finished rounds as the viewer may see them
	onlooker endedView                // the same for StateFor, as an onlooker sees them (stateview.go)
	ended    map[Viewer]*endedView    // per Viewer who sees more than an onlooker: its own
	decoded  []any
	decPos   Position
	decision any
	decKey   string
}

// history returns the finished rounds as viewer id may see them, redacting
// only the rounds that ended since id's last view; with limit > 0, only
// the last limit of them, redacted for this view. The slice is shared with
// later views (clipped, so appending to it copies): read only.
func (t *Table) history(ctx context.Context, id string, limit int) ([]RoundRecord, error) {
	done := endedRounds(t.state)
	if limit > 0 { // the last rounds only, uncached
		rs, err := t.loadArchived(ctx, max(done-limit+1, 1), done)
		if err != nil || len(rs) == 0 {
			return nil, err
		}
		h := make([]RoundRecord, len(rs))
		for i, r := range rs {
			h[i] = r.visibleTo(id)
		}
		return h, nil
	}
	if t.views.history == nil {
		t.views.history = map[string][]RoundRecord{}
	}
	h := t.views.history[id]
	if len(h) > done {
		h = nil // the state went back (a rollback): start again
	}
	if len(h) < done {
		rs, err := t.loadArchived(ctx, len(h)+1, done)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			h = append(h, r.visibleTo(id))
		}
	}
	t.views.history[id] = h
	if len(h) == 0 {
		return nil, nil
	}
	return slices.Clip(h), nil
}

// decodeCandidates fills v.Decoded and v.DecodedDecision when the task is a
// Decoder, decoding at most once per phase and decision.
func (t *Table) decodeCandidates(v *View) {
	dec, ok := t.task.(Decoder)
	if !ok {
		return
	}
	s := t.state
	if pos := s.Position(); t.views.decPos != pos || len(t.views.decoded) != len(s.Candidates) {
		t.views.decPos = pos
		t.views.decoded = make([]any, len(s.Candidates))
		for i, c := range s.Candidates {
			t.views.decoded[i] = decodeOrNil(dec, c.Proposal)
		}
	}
	if s.Decision == nil {
		t.views.decision, t.views.decKey = nil, ""
	} else if t.views.decision == nil || t.views.decKey != s.Decision.Key {
		t.views.decision, t.views.decKey = decodeOrNil(dec, s.Decision.Proposal), s.Decision.Key
	}
	if len(t.views.decoded) > 0 {
		v.Decoded = t.views.decoded
	}
	v.DecodedDecision = t.views.decision
}

func decodeOrNil(dec Decoder, p Proposal) any {
	x, err := dec.Decode(p)
	if err != nil {
		return nil
	}
	return x
}
