package agent

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// actScheduled answers the phases that only protocols schedule, and
// messages of paired steps. ok is false for RoundTable's own phases.
func (a *Agent) actScheduled(ctx context.Context, v roundtable.View) (roundtable.Action, bool) {
	var u roundtable.Usage
	switch {
	case v.Phase == roundtable.PhaseMessage && briefingOf(v).SelfModel:
		return a.selfModelMessage(ctx, v), true
	case v.Phase == roundtable.PhaseSurvey && v.Scale != nil && verbal(v):
		return a.verbalReport(ctx, v), true
	case v.Phase == roundtable.PhaseSurvey && v.Scale != nil:
		return a.decide(ctx, v, &u, surveySchema(*v.Scale), surveyInstruction(v)+modelReminder(latestModel(v)),
			func(c string) (roundtable.Action, error) { return parseJudgeSurvey(v, c) }), true
	case v.Phase == roundtable.PhasePrivate:
		return a.decide(ctx, v, &u, messageSchema(otherNames(v)), privateInstruction(v),
			func(c string) (roundtable.Action, error) { return parseMessage(v, c) }), true
	case v.Phase == roundtable.PhaseMessage && v.To != "":
		return a.decide(ctx, v, &u, messageSchema(nil), messageInstruction(v)+pairLine(v),
			func(c string) (roundtable.Action, error) {
				act, err := parseMessage(v, c)
				if s, ok := act.(roundtable.Say); ok {
					s.To = []string{v.To} // the moderator allows no one else
					return s, nil
				}
				return act, err
			}), true
	}
	return nil, false
}

// verbal: the protocol has its participants report in words, classified
// to a value (Briefing.VerbalReport), unless the table asks for the
// number itself; a scale of several values is always answered in numbers.
func verbal(v roundtable.View) bool {
	return briefingOf(v).VerbalReport && v.Params[SelfReportParam] != SelfReport && v.Scale.Values() == 1
}

// surveySchema asks for reasoning first, then one number per item.
func surveySchema(s roundtable.Scale) *Schema {
	n := s.Values()
	num := obj{{"type", "number"}, {"minimum", s.Min}, {"maximum", s.Max}}
	if s.Step > 0 {
		num = append(num, field{"multipleOf", s.Step})
	}
	values := obj{{"type", "array"}, {"items", num}, {"minItems", n}, {"maxItems", n},
		{"description", "one value per item, in the order given"}}
	return schemaOf("survey", object(field{"reasoning", str("why, in a sentence or two; only you and the organiser see it")}, field{"values", values}))
}

type surveyAnswer struct {
	Reasoning string    `json:"reasoning"`
	Values    []float64 `json:"values"`
}

func parseSurvey(s roundtable.Scale, content string) (roundtable.Action, error) {
	var a surveyAnswer
	if err := decode(content, &a); err != nil {
		return nil, err
	}
	if err := s.Check(a.Values); err != nil {
		return nil, errors.New(roundtable.ErrorMessage(err))
	}
	return roundtable.Report{Values: a.Values, Reason: strings.TrimSpace(a.Reasoning)}, nil
}

func surveyInstruction(v roundtable.View) string {
	s := v.Scale
	var b strings.Builder
	b.WriteString(phaseHeader(v, "survey"))
	if s.Question != "" {
		fmt.Fprintf(&b, "The question: %s\n", quote(s.Question))
	}
	fmt.Fprintf(&b, "Report privately where you stand now, %s. Nobody else at the table sees your answer.\n", s.Describe())
	return b.String()
}

func privateInstruction(v roundtable.View) string {
	return phaseHeader(v, "private message") +
		"Write one private message: what you really think now. Nobody at the table sees it, except the participants you list in \"to\" (leave it empty to keep it to yourself).\n"
}

func pairLine(v roundtable.View) string {
	if note := briefingOf(v).PairNote; note != "" && v.Scale != nil && v.Scale.Question != "" {
		return strings.NewReplacer("{to}", v.Name(v.To), "{question}", quote(v.Scale.Question)).Replace(note) + "\n"
	}
	return fmt.Sprintf("This round you write to %s only, who will then say what they think.\n", v.Name(v.To))
}

// scheduleText describes the table's schedule in the system prompt: the
// protocol's own words, RoundTable's (also with a survey after the vote),
// or, for a schedule no protocol registered, a line that names it.
func scheduleText(v roundtable.View) string {
	switch {
	case v.Briefing != nil && v.Briefing.Schedule != "":
		return "\n## How the table works\n" + strings.ReplaceAll(v.Briefing.Schedule, "{rounds}", strconv.Itoa(v.Rounds)) + "\n"
	case v.Briefing != nil || v.Protocol == "":
		return protocolText(v.Rounds)
	}
	return fmt.Sprintf("\n## How the table works\nThe table follows the %s schedule for up to %d rounds; each request says what to do.\n", v.Protocol, v.Rounds)
}
