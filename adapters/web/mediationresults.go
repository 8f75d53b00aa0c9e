package web

import (
	"context"
	"math"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/mediation"
)

// A mediation's agreement on its dashboard (docs/protocol.md#mediation):
// the group's statement, the share of the last ranking that put it first
// and how far it moved from the first draft, to everyone once the table
// has ended; the endorsements (private survey answers) to the organiser
// alone, as a distribution.

// mediationView is a mediation's section of the dashboard.
type mediationView struct {
	Ended       bool
	Statement   string
	FirstDraft  string
	FirstChoice string // share of the last ranking's ballots, e.g. "2 of 3"
	Movement    string // cosine distance, hashed TF-IDF
	Rounds      int
	LeftOut     int
	// Endorse counts each level 1..7 of endorsement; Mean is their mean.
	// Both are the organiser's only.
	Endorse  []endorseRow
	Mean     string
	Everyone bool
}

type endorseRow struct {
	Level int
	Label string
	Count int
}

// mediationResults is the mediation section of the dashboard of the
// table in roomID (org when the visitor organises it), or nil.
func (p *Platform) mediationResults(ctx context.Context, roomID string, st *roundtable.State, org bool) *mediationView {
	if !st.Config.Protocol.Mediated() {
		return nil
	}
	v := &mediationView{Ended: st.Status == roundtable.StatusEnded, Everyone: org}
	if !v.Ended {
		return v
	}
	full := st
	if org {
		var err error
		if full, err = p.state(ctx, roomID, roundtable.Viewer{Organiser: true, Researcher: true}); err != nil {
			p.log.Warn("dashboard mediation", "room", roomID, "err", err)
			full = st
		}
	}
	a := mediation.Agree(full)
	v.Statement, v.FirstDraft, v.Rounds, v.LeftOut = a.Statement, a.FirstDraft, a.Rounds, a.LeftOut
	if a.Ballots > 0 && !math.IsNaN(a.FirstChoice) {
		v.FirstChoice = strconv.Itoa(int(a.FirstChoice*float64(a.Ballots)+0.5)) + " of " + strconv.Itoa(a.Ballots)
	}
	if d, ok, err := mediation.Movement(ctx, embed.HashedTFIDF{}, a); err == nil && ok {
		v.Movement = number(d)
	}
	if !org {
		return v
	}
	labels := mediation.EndorsementScale().Labels
	sum := 0.0
	for k := 1; k <= 7; k++ {
		row := endorseRow{Level: k, Label: labels[k-1]}
		for _, e := range a.Endorsements {
			if int(e) == k {
				row.Count++
			}
		}
		v.Endorse = append(v.Endorse, row)
	}
	for _, e := range a.Endorsements {
		sum += e
	}
	if n := len(a.Endorsements); n > 0 {
		v.Mean = number(sum / float64(n))
	}
	return v
}
