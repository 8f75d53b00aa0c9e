package web

import (
	"context"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
)

// A panel's results on its dashboard (bot.Tables.Panel): once it has
// ended, its rankings as the room's closing post gives them, to everyone;
// the judges' mean sentiment per item after each round and every survey
// answer to the organiser, who alone sees everyone's; to a person, their
// own answers.

// panelView is a panel's section of the dashboard.
type panelView struct {
	Items []string
	// Rankings are the items in the order of the Borda count, once the
	// table has ended; Judges counts the judges they rank by.
	Rankings []rankRow
	Judges   int
	// Means are the judges' mean sentiment per item after each round.
	Means []meanRow
	// Answers are the survey answers the viewer may see; Everyone is set
	// when they are everyone's (the organiser's view).
	Answers  []answerRow
	Everyone bool
	// Chart draws the mean sentiments: the organiser's at any time,
	// everyone's once the table has ended (with the rankings).
	Chart *lineChart
}

type rankRow struct {
	Place            int
	Item             string
	Borda, Tier, Gut string
}

type meanRow struct {
	Round  int
	Values []string
}

type answerRow struct {
	Round  int
	Who    string
	Values []string
}

// panelResults is the panel section of the dashboard of the table in
// roomID for viewer (org when it is the organiser's); nil for a table that
// judges no items, or whose results cannot be read.
func (p *Platform) panelResults(ctx context.Context, roomID string, st *roundtable.State, viewer roundtable.Viewer, org bool) *panelView {
	if p.tables == nil || !rates(st.Config.Protocol) {
		return nil
	}
	if org {
		viewer.Organiser, viewer.Researcher = true, true
	}
	mine, err := p.tables.Panel(ctx, roomID, viewer)
	if err != nil {
		p.log.Warn("dashboard panel", "room", roomID, "err", err)
		return nil
	}
	v := &panelView{Items: mine.Items, Everyone: org}
	for _, a := range mine.Answers {
		v.Answers = append(v.Answers, answerRow{Round: a.Round, Who: nameOf(mine, a.By), Values: numbers(a.Values)})
	}
	sc := firstScale(st.Config.Protocol)
	if org {
		v.Chart = sentimentChart(mine.Items, mine.Mean, sc)
		for i, m := range mine.Mean {
			if len(m) > 0 {
				v.Means = append(v.Means, meanRow{Round: i + 1, Values: numbers(m)})
			}
		}
	}
	if st.Status != roundtable.StatusEnded {
		return v
	}
	all := mine
	if !org { // the rankings were posted to everyone: they rank every judge's answers
		if all, err = p.tables.Panel(ctx, roomID, roundtable.Viewer{Participant: viewer.Participant, Organiser: true}); err != nil {
			p.log.Warn("dashboard panel rankings", "room", roomID, "err", err)
			return v
		}
	}
	v.Judges = all.Judges
	if v.Chart == nil {
		v.Chart = sentimentChart(all.Items, all.Mean, sc)
	}
	if all.Judges > 0 {
		for k, i := range panel.Order(all.Borda, false) {
			v.Rankings = append(v.Rankings, rankRow{Place: k + 1, Item: all.Items[i], Borda: number(all.Borda[i]), Tier: number(all.Tier[i]), Gut: number(all.Gut[i])})
		}
	}
	return v
}

// nameOf names participant id in r, or "(someone)".
func nameOf(r *bot.PanelResults, id string) string {
	if n := r.Names[id]; n != "" {
		return n
	}
	return "(someone)"
}

func number(x float64) string {
	return strings.Replace(strconv.FormatFloat(x, 'g', 3, 64), "-", "−", 1)
}

func numbers(xs []float64) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = number(x)
	}
	return out
}
