package facilitator

import (
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// actScheduled answers the phases that protocol tables (panel, chatroom,
// dyads) schedule. The facilitator holds no opinion of its own: it keeps
// the conversation going, invites those who have not spoken, and reports
// the middle of every scale, which it says in its reason so that nobody
// reads it as a view.
func actScheduled(v roundtable.View) (roundtable.Action, bool) {
	switch {
	case v.Phase == roundtable.PhaseSurvey && v.Scale != nil:
		return roundtable.NoOpinion(*v.Scale, "the facilitator holds no view of its own and reports the middle of the scale"), true
	case v.Phase == roundtable.PhasePrivate:
		return roundtable.Say{Text: "Facilitator's note: I take no side on the question; I kept the conversation open to every view."}, true
	case v.Phase == roundtable.PhaseMessage && v.Protocol != "":
		s := roundtable.Say{Text: invitation(v)}
		if v.To != "" {
			s.To = []string{v.To} // a paired step allows no other addressee
		}
		return s, true
	}
	return nil, false
}

// invitation names who has not spoken yet and asks them in, or, once
// everyone has, asks for the strongest argument on each side.
func invitation(v roundtable.View) string {
	spoke := map[string]bool{v.Self.ID: true}
	for _, r := range v.SoFar() {
		for _, m := range r.Messages {
			if !m.Private {
				spoke[m.From] = true
			}
		}
	}
	var quiet []string
	for _, p := range v.Participants {
		if !spoke[p.ID] {
			quiet = append(quiet, p.Name)
		}
	}
	topic := question(v)
	if v.To != "" {
		return fmt.Sprintf("%s, where do you stand on %s, and why?", v.Name(v.To), topic)
	}
	if len(quiet) > 0 {
		return fmt.Sprintf("We have not heard yet from %s: where do you stand on %s?", strings.Join(quiet, ", "), topic)
	}
	return fmt.Sprintf("Everyone has spoken on %s. What is the strongest argument on the side you disagree with?", topic)
}

func question(v roundtable.View) string {
	if v.Scale != nil && v.Scale.Question != "" {
		return fmt.Sprintf("%q", v.Scale.Question)
	}
	if v.Brief != "" {
		return fmt.Sprintf("%q", clip(v.Brief, 120))
	}
	return "the question"
}
