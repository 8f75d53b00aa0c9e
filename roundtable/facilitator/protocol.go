package facilitator

import (
	"fmt"
	"slices"
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
// everyone has, asks for the strongest argument on each side. At a
// sealed table the messages of a phase are revealed together, so those
// who speak in this phase are not named as silent: their words come out
// beside the invitation.
func invitation(v roundtable.View) string {
	spoke := map[string]bool{v.Self.ID: true}
	for _, r := range v.SoFar() {
		for _, m := range r.Messages {
			if !m.Private {
				spoke[m.From] = true
			}
		}
	}
	speaking := func(id string) bool {
		return v.Mode == roundtable.Sealed && (len(v.Turn) == 0 || slices.Contains(v.Turn, id))
	}
	var quiet []string
	newcomers := false
	for _, p := range v.Participants {
		switch {
		case spoke[p.ID]:
		case speaking(p.ID):
			newcomers = true
		default:
			quiet = append(quiet, p.Name)
		}
	}
	topic := question(v)
	switch {
	case v.To != "":
		return fmt.Sprintf("%s, where do you stand on %s, and why?", v.Name(v.To), topic)
	case len(quiet) > 0:
		return fmt.Sprintf("We have not heard yet from %s: where do you stand on %s?", listNames(quiet), topic)
	case newcomers:
		return fmt.Sprintf("Where do you each stand on %s, and why? Every view is welcome.", topic)
	}
	return fmt.Sprintf("Everyone has spoken on %s. What is the strongest argument on the side you disagree with?", topic)
}

// listNames writes "A", "A and B", "A, B and C".
func listNames(ns []string) string {
	if len(ns) < 2 {
		return strings.Join(ns, "")
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
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
