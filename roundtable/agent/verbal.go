package agent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// SelfReportParam is the protocol parameter that makes a verbal-report
// protocol (Briefing.VerbalReport) take the number the model reports
// itself instead: its value SelfReport.
const (
	SelfReportParam = "belief_report"
	SelfReport      = "self"
)

// classifiedTag opens the note, at the end of a classified answer's
// reason, that says the number came from the opinion classifier.
const classifiedTag = "[classified from the verbal report"

// verbalReport answers a survey as Opinion dynamics has its listeners
// answer (section 2.1 and appendix I): the model states its belief in its
// own words, and an opinion classifier, a second question to the same
// endpoint with nothing but those words, maps them to a value of the
// scale. The recorded reason is the words, with a note of the classified
// value.
func (a *Agent) verbalReport(ctx context.Context, v roundtable.View) roundtable.Action {
	var u roundtable.Usage
	act := a.decide(ctx, v, &u, verbalSchema(), verbalInstruction(v), func(c string) (roundtable.Action, error) { return parseVerbal(c) })
	said, ok := act.(roundtable.Report)
	if !ok {
		return act
	}
	value, fail := a.classifyOpinion(ctx, v, said.Reason, &u)
	if fail != nil {
		return fail
	}
	said.Values = []float64{value}
	said.Reason += fmt.Sprintf(" %s: %g]", classifiedTag, value)
	return withUsage(said, u)
}

// verbalSchema asks for the reasoning, then the belief in words.
func verbalSchema() *Schema {
	return schemaOf("survey", object(field{"reasoning", str("think it through step by step; only you and the organiser see it")},
		field{"belief", str("your honest belief about the claim now, in a sentence or two of your own words")}))
}

func verbalInstruction(v roundtable.View) string {
	var b strings.Builder
	b.WriteString(phaseHeader(v, "survey"))
	if q := v.Scale.Question; q != "" {
		fmt.Fprintf(&b, "The claim: %s\n", quote(q))
	}
	b.WriteString("What is your honest belief about the claim now? Say it in your own words. Nobody else at the table sees your answer.\n")
	return b.String()
}

func parseVerbal(content string) (roundtable.Action, error) {
	var a struct {
		Reasoning string `json:"reasoning"`
		Belief    string `json:"belief"`
	}
	if err := decode(content, &a); err != nil {
		return nil, err
	}
	belief := strings.TrimSpace(a.Belief)
	if belief == "" {
		return nil, errors.New("belief is empty: say what you believe about the claim")
	}
	return roundtable.Report{Reason: strings.TrimSpace(strings.TrimSpace(a.Reasoning) + " " + belief)}, nil
}

// classifyOpinion is the opinion classifier: the words alone (no persona,
// no memory) and the claim, answered with one level of the scale. An
// answer off the levels is asked again once with the error.
func (a *Agent) classifyOpinion(ctx context.Context, v roundtable.View, words string, u *roundtable.Usage) (float64, roundtable.Action) {
	s := classifierSchema(*v.Scale)
	mode := a.outputMode()
	prompt := classifierPrompt(*v.Scale, words)
	if mode != OutputJSONSchema {
		prompt += schemaHint(s)
	}
	msgs := []ChatMessage{{RoleUser, prompt}}
	var invalid error
	for attempt := range 2 {
		req := Request{Messages: msgs, Schema: s, Output: mode, Temperature: a.opt.Temperature, MaxTokens: a.opt.MaxTokens,
			Seed: seedFor(v, v.Phase, 2+attempt), User: "opinion-classifier"} // seeds apart from the report's (attempts 0, 1)
		resp, err := a.complete(ctx, req, u)
		if err != nil {
			return 0, failure(ctx, err, *u)
		}
		var ans struct {
			Value float64 `json:"value"`
		}
		if err = decode(resp.Content, &ans); err == nil {
			err = onLevel(*v.Scale, ans.Value)
		}
		if err == nil {
			return ans.Value, nil
		}
		invalid = err
		msgs = append(msgs, ChatMessage{RoleAssistant, resp.Content}, ChatMessage{RoleUser, repairPrompt(err)})
	}
	return 0, roundtable.Fail{Kind: "format", Reason: fmt.Sprintf("invalid opinion_classifier answer twice: %v", invalid), Usage: u}
}

// classifierSchema asks for one whole level of the scale.
func classifierSchema(s roundtable.Scale) *Schema {
	return schemaOf("opinion_classifier", object(field{"value", obj{{"type", "integer"}, {"minimum", math.Ceil(s.Min)}, {"maximum", math.Floor(s.Max)}}}))
}

// classifierPrompt is the opinion classifier's question: what a person
// said after reading a post, and which level of the scale it expresses.
func classifierPrompt(s roundtable.Scale, words string) string {
	var levels []string
	for x := math.Ceil(s.Min); x <= math.Floor(s.Max); x++ {
		levels = append(levels, fmt.Sprintf("%g", x))
	}
	return fmt.Sprintf("A person read a post about a claim and then said:\n\n%s\n\n"+
		"The claim: %s\n"+
		"On a scale from %g (a strongly negative opinion about the claim) through 0 (neutral) to %g (a strongly positive opinion), "+
		"what is this person's belief about the claim right now? Answer with one of %s.\n",
		quote(words), quote(s.Question), math.Ceil(s.Min), math.Floor(s.Max), strings.Join(levels, ", "))
}

// onLevel refuses a value that is not a whole level of the scale.
func onLevel(s roundtable.Scale, x float64) error {
	if x != math.Trunc(x) || x < s.Min || x > s.Max {
		return fmt.Errorf("value %g is not one of the whole levels from %g to %g", x, math.Ceil(s.Min), math.Floor(s.Max))
	}
	return nil
}

// Classified reports whether a survey answer's value came from the
// opinion classifier over a verbal report.
func Classified(reason string) bool { return strings.Contains(reason, classifiedTag) }
