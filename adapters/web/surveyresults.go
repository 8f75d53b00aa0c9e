package web

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// The survey answers of a table that surveys without judging items (a
// questionnaire, a chatroom, dyads) on its dashboard: the organiser sees
// everyone's, a person their own; each answer with its level's words.

// surveyView is the dashboard's section of survey answers.
type surveyView struct {
	Question string
	Rows     []surveyRow
	Everyone bool   // the rows are everyone's (the organiser's view)
	Mean     string // of everyone's answers, for the organiser
}

type surveyRow struct {
	Round       int
	Who, Answer string
}

// surveyAnswers is the survey section of the dashboard of the table in
// roomID for viewer (org when it is the organiser's), or nil for a table
// that surveys nothing or judges items (panelResults shows those).
func (p *Platform) surveyAnswers(ctx context.Context, roomID string, st *roundtable.State, viewer roundtable.Viewer, org bool) *surveyView {
	pr := st.Config.Protocol
	if !pr.Plays(roundtable.PhaseSurvey) || rates(pr) {
		return nil
	}
	if org { // survey answers are private to their authors: the organiser reads them all
		all, err := p.state(ctx, roomID, roundtable.Viewer{Participant: viewer.Participant, Organiser: true, Researcher: true})
		if err != nil {
			p.log.Warn("dashboard surveys", "room", roomID, "err", err)
			return nil
		}
		st = all
	}
	sc := firstScale(pr)
	v := &surveyView{Everyone: org}
	if sc != nil {
		v.Question = sc.Question
	}
	var sum float64
	n := 0
	for _, r := range st.Rounds {
		for _, a := range r.Surveys {
			if !org && a.By != viewer.Participant {
				continue
			}
			who := "you"
			if org {
				who = "(someone)"
				if pt, ok := st.Participant(a.By); ok {
					who = pt.Name
				}
			}
			v.Rows = append(v.Rows, surveyRow{Round: r.Round, Who: who, Answer: answerWords(sc, a.Values)})
			for _, x := range a.Values {
				sum += x
				n++
			}
		}
	}
	if org && n > 0 {
		v.Mean = number(sum / float64(n))
	}
	return v
}

// firstScale is the first survey scale of schedule pr, or nil.
func firstScale(pr *roundtable.Protocol) *roundtable.Scale {
	for st := range pr.Steps() {
		if st.Scale != nil {
			return st.Scale
		}
	}
	return nil
}

// answerWords writes an answer's values, each with its level's label
// when the scale names its levels, in the words the survey's buttons use.
func answerWords(sc *roundtable.Scale, values []float64) string {
	out := make([]string, len(values))
	for i, x := range values {
		out[i] = number(x)
		if sc == nil || sc.Step <= 0 {
			continue
		}
		if k := math.Round((x - sc.Min) / sc.Step); k >= 0 && int(k) < len(sc.Labels) {
			out[i] = fmt.Sprintf("%s (%s)", out[i], bot.LevelWords(sc.Labels[int(k)]))
		}
	}
	return strings.Join(out, ", ")
}
