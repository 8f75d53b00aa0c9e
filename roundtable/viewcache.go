package roundtable

import "slices"

// Decoder is implemented by tasks whose proposals carry structured data
// that agents read (an exchange allocation). The moderator decodes each
// phase's candidates and the current decision once, and every viewer of the
// phase gets the same values in View.Decoded and View.DecodedDecision, so a
// phase costs one decode per candidate rather than one per voter.
// Decode must be safe for concurrent use and must not keep p.
type Decoder interface {
	Decode(p Proposal) (any, error)
}

// viewCache holds what Table.View would otherwise rebuild for every viewer
// in every phase. Rounds before the current one never change, so each is
// redacted once per viewer and kept; decoded candidates are kept for the
// phase they belong to. The table's lock guards it; rollback drops it.
type viewCache struct {
	history  map[string][]RoundRecord // per viewer: finished rounds as the viewer may see them
	decoded  []any
	decPos   Position
	decision any
	decKey   string
}

// history returns the finished rounds as viewer id may see them, redacting
// only the rounds that ended since id's last view. The slice is shared with
// later views (clipped, so appending to it copies): read only.
func (t *Table) history(id string) []RoundRecord {
	s := t.state
	done := min(max(s.Round-1, 0), len(s.Rounds))
	if t.views.history == nil {
		t.views.history = map[string][]RoundRecord{}
	}
	h := t.views.history[id]
	if len(h) > done {
		h = nil // the state went back (a rollback): start again
	}
	for r := len(h); r < done; r++ {
		h = append(h, s.Rounds[r].visibleTo(id))
	}
	t.views.history[id] = h
	if len(h) == 0 {
		return nil
	}
	return slices.Clip(h)
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
