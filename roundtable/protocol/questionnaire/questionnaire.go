// Package questionnaire is the chatroom's baseline in Conversational
// bias: the same personas answer the stance survey once, with no
// conversation. Its tables are measured and reported with the
// chatroom's.
package questionnaire

import (
	"context"
	"maps"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
)

// Name is the protocol's name.
const Name = "questionnaire"

func init() { protocol.Register(definition{chatroom.Headless{Protocol: Name}}) }

// definition is the registered protocol: headless, it is the chatroom's.
type definition struct{ chatroom.Headless }

var (
	_ protocol.Headless = definition{}
	_ protocol.Briefer  = definition{}
	_ protocol.Analyst  = definition{}
)

// Name implements protocol.Protocol.
func (definition) Name() string { return Name }

// Schedule implements protocol.Protocol.
func (definition) Schedule(s protocol.Settings) (*roundtable.Protocol, error) {
	if err := chatroom.CheckSettings(s); err != nil {
		return nil, err
	}
	return chatroom.Record(Preset(s), s), nil
}

// Own implements protocol.Protocol: the chatroom's settings.
func (definition) Own(s protocol.Settings) []string { return chatroom.OwnSettings(s) }

// Briefing implements protocol.Briefer.
func (definition) Briefing() roundtable.Briefing {
	return roundtable.Briefing{Schedule: "The table follows the questionnaire schedule for up to {rounds} rounds; each request says what to do."}
}

// Preset is the one-shot Likert questionnaire: everyone privately reports
// a stance on the five levels about the question, once.
func Preset(s protocol.Settings) *roundtable.Protocol {
	return &roundtable.Protocol{Name: Name,
		Round: []roundtable.Step{{Phase: roundtable.PhaseSurvey, Speakers: roundtable.SpeakEveryone, Scale: roundtable.StanceScale(s.Question)}},
		Stop:  roundtable.StopRule{Kind: roundtable.StopRounds}}
}

// Joins implements protocol.Analyst: the questionnaire is the chatroom's
// baseline, a row of its report.
func (definition) Joins() string { return chatroom.Name }

// Analyze implements protocol.Analyst: the chatroom's figures from the
// self-reports of the one-shot questionnaire, and the Likert baseline's
// deviations (opinion.LikertDeviation): every answer of a seat assigned 2
// or -2, each survey round a repeat.
func (definition) Analyze(_ context.Context, t protocol.Table, _ protocol.Instruments) (protocol.Measured, error) {
	params := protocol.Params(t.State)
	params["stance_from"] = "Likert questionnaire (self-report)"
	m := chatroom.Measure(t.State)
	maps.Copy(m.Scalars, Likert(t.State))
	return protocol.Measured{Measures: m, Params: params}, nil
}

// Likert is a questionnaire table's baseline figures: likert_statement and
// likert_complement, the mean deviation from "strongly agree" of the
// answers of the seats assigned 2 and -2 (each left out when no such seat
// answered), their counts, and likert_score, -4..4 (opinion.LikertScore).
func Likert(s *roundtable.State) map[string]float64 {
	var st, co []float64
	for _, r := range s.Rounds {
		for _, a := range r.Surveys {
			p, ok := s.Participant(a.By)
			assigned, err := opinion.ParseStance(p.Stance)
			if !ok || err != nil || p.Stance == "" || len(a.Values) == 0 || roundtable.IsNoOpinion(a.Reason) {
				continue
			}
			if d, ok := opinion.LikertDeviation(assigned, a.Values[0]); ok && assigned > 0 {
				st = append(st, d)
			} else if ok {
				co = append(co, d)
			}
		}
	}
	out := map[string]float64{"likert_answers_statement": float64(len(st)), "likert_answers_complement": float64(len(co))}
	if len(st) == 0 && len(co) == 0 {
		return out
	}
	out["likert_score"] = opinion.LikertScore(st, co)
	if len(st) > 0 {
		out["likert_statement"] = opinion.Bias(st)
	}
	if len(co) > 0 {
		out["likert_complement"] = opinion.Bias(co)
	}
	return out
}
