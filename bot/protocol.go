package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Verbs of the protocols' controls: a survey's button (open the form) and
// form (an answer), and the private phase's button (open the message form).
const (
	verbSurvey  = "survey"
	verbPrivate = "pwrite"
)

// protocolControls are the buttons of the phases only protocols schedule.
func protocolControls(s *roundtable.State) []Control {
	r := ref{Table: s.ID, Round: s.Round}
	switch s.Phase {
	case roundtable.PhasePrivate:
		return []Control{{ID: withVerb(r, verbPrivate), Kind: Button, Label: "Write private message", Primary: true}}
	case roundtable.PhaseSurvey:
		return append(levelButtons(s, r), Control{ID: withVerb(r, verbSurvey), Kind: Button, Label: "Answer", Primary: true})
	}
	return nil
}

// renderTurn says whose turn it is, when the schedule names anyone.
func renderTurn(s *roundtable.State) string {
	if len(s.Turn) == 0 {
		return ""
	}
	line := "\nIt is the turn of **" + s.TurnNames() + "**; nobody else acts in this phase."
	if r := s.Current(); r != nil && len(r.Pair) == 2 && s.Phase == roundtable.PhaseMessage {
		to, _ := s.Participant(r.Pair[1])
		from, _ := s.Participant(r.Pair[0])
		line += fmt.Sprintf(" This round %s writes to %s.", nameOr(from, r.Pair[0]), nameOr(to, r.Pair[1]))
	}
	return line
}

// renderProtocolPhase explains the survey and private-message phases.
func renderProtocolPhase(s *roundtable.State) string {
	switch s.Phase {
	case roundtable.PhasePrivate:
		return "Write one private message with **Write private message**: only you (and anyone you address) will see it. " +
			"Do not write it in this thread, which everyone reads."
	case roundtable.PhaseSurvey:
		sc := s.Scale()
		if sc == nil {
			return ""
		}
		how := "with **Answer**"
		if buttonLevels(sc) > 0 {
			how = "with one click on your level below (or **Answer**)"
		}
		return "Say privately where you stand " + how + ": " + describeScale(*sc) + " Nobody at the table sees your answer; the organiser's export holds it."
	}
	return ""
}

func describeScale(sc roundtable.Scale) string {
	labels := make([]string, len(sc.Labels))
	for i, l := range sc.Labels {
		labels[i] = levelWords(l)
	}
	sc.Labels = labels
	if sc.Question != "" {
		return quote(sc.Question) + " " + sc.Describe() + "."
	}
	return sc.Describe() + "."
}

// renderSchedule describes a protocol's rounds in the intro.
func renderSchedule(s *roundtable.State) string {
	pr := s.Config.Protocol
	if pr == nil {
		return fmt.Sprintf("%s, each with a message, a proposal and a vote phase.", plural(s.Config.Rounds, "round", "rounds"))
	}
	steps := make([]string, len(pr.Round))
	for i, st := range pr.Round {
		steps[i] = stepText(st)
	}
	out := fmt.Sprintf("Protocol: **%s**. Up to %s, each: %s.", pr, plural(s.Config.Rounds, "round", "rounds"), strings.Join(steps, ", then "))
	if len(pr.Final) > 0 {
		fin := make([]string, len(pr.Final))
		for i, st := range pr.Final {
			fin[i] = stepText(st)
		}
		out += " At the end: " + strings.Join(fin, ", then ") + "."
	}
	return out
}

func stepText(st roundtable.Step) string {
	who := map[roundtable.Speakers]string{
		roundtable.SpeakRandom: "one person, never the last speaker", roundtable.SpeakAllButOne: "everyone but the last speaker",
		roundtable.SpeakPair: "one of a drawn pair, to the other", roundtable.SpeakBoth: "a drawn pair, to each other",
		roundtable.SpeakListener: "the one written to", roundtable.SpeakOne: "one person, drawn",
	}[st.Speakers]
	if who == "" {
		who = "everyone"
	}
	return fmt.Sprintf("%s (%s)", st.Phase, who)
}

// surveyForm asks one value per item of the open survey.
func surveyForm(s *roundtable.State) (Form, error) {
	sc := s.Scale()
	if sc == nil {
		return Form{}, roundtable.Errorf(roundtable.Conflict, "no survey is open")
	}
	f := Form{ID: withVerb(ref{Table: s.ID, Round: s.Round}, verbSurvey), Title: fmt.Sprintf("Round %d survey", s.Round)}
	for i := range sc.Values() {
		label := fmt.Sprintf("Your value, %g to %g", sc.Min, sc.Max)
		if i < len(sc.Items) {
			label = clip(fmt.Sprintf("%s: %g to %g", sc.Items[i], sc.Min, sc.Max), 45)
		}
		f.Fields = append(f.Fields, Field{ID: fmt.Sprintf("v%d", i), Label: label, MaxLen: 16})
	}
	return f, nil
}

// surveyValues reads a survey form's values in item order.
func surveyValues(sc *roundtable.Scale, fields map[string]string) ([]float64, error) {
	if sc == nil {
		return nil, roundtable.Errorf(roundtable.Conflict, "no survey is open")
	}
	out := make([]float64, sc.Values())
	for i := range out {
		raw := strings.TrimSpace(fields[fmt.Sprintf("v%d", i)])
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return nil, roundtable.Errorf(roundtable.Invalid, "answer not recorded: %q is not a number", raw)
		}
		out[i] = v
	}
	return out, nil
}

// answer records a survey form.
func (lt *live) answer(ctx context.Context, ev *Event) (*Reply, error) {
	s := lt.table.Snapshot()
	form, ferr := surveyForm(s)
	vals, err := surveyValues(s.Scale(), ev.Fields)
	if err == nil {
		err = lt.act(ctx, roundtable.Report{Actor: ParticipantID(ev.Platform, ev.User.ID), Key: "survey:" + ev.ID, Values: vals})
	}
	switch {
	case err == nil:
		return ephemeral("Your answer is recorded. Only you and the organiser's export see it."), nil
	case ferr != nil || roundtable.ErrorCode(err) == roundtable.Internal:
		return nil, err
	}
	return formError(form, err), nil
}
