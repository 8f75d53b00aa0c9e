package audit

import (
	"math"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
)

// surveyReader reads self-reports from a log's survey answers: the
// answers of a survey whose scale is a stance (roundtable.IsSelfReport),
// rounded to the nearest of the five levels. The answers of agents with
// no opinion model (roundtable.IsNoOpinion) are no self-reports. It follows the log to know
// which survey each answer belongs to.
type surveyReader struct {
	protocol *roundtable.Protocol
	scale    *roundtable.Scale
}

// read returns the self-report e records, if it is one.
func (r *surveyReader) read(e roundtable.Event) (SelfReport, bool) {
	switch d := e.Data.(type) {
	case roundtable.TableCreated:
		r.protocol = d.Config.Protocol
	case roundtable.PhaseOpened:
		r.scale = nil
		if r.protocol == nil || d.Phase != roundtable.PhaseSurvey {
			break
		}
		if st, ok := r.protocol.Step(d.Step); ok {
			r.scale = st.Scale
		}
	case roundtable.SurveyAnswered:
		if !roundtable.IsSelfReport(r.scale) || len(d.Values) != 1 || math.IsNaN(d.Values[0]) || roundtable.IsNoOpinion(d.Reason) {
			return SelfReport{}, false
		}
		l := stance.Level(opinion.Round(d.Values[0]))
		return SelfReport{Participant: e.Actor, Round: d.Round, Level: l, Label: l.Label()}, true
	}
	return SelfReport{}, false
}
