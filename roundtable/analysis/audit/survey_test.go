package audit

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Self-reports are read from the survey answers of a table that asks for
// them (a person's and an agent's), beside the annotations that held them
// in logs written before; a round's report is counted once.
func TestSelfReportsAreReadFromSurveyAnswers(t *testing.T) {
	ctx := context.Background()
	st := roundtabletest.NewMemStore()
	cfg := roundtable.Config{Rule: vote.Plurality, Rounds: 1, Seed: 1, Task: roundtable.TaskSpec{Kind: "text", Topic: "homework"},
		Audit:        &roundtable.AuditSpec{Instruments: []string{"stance"}, Statement: "Homework should be abolished.", SelfReport: true},
		Participants: []roundtable.Participant{{ID: "ann", Name: "Ann", Kind: roundtable.Human}, {ID: "ada", Name: "Ada", Kind: roundtable.Bot, Stance: "2"}}}
	tb, err := roundtable.Create(ctx, st, roundtabletest.NewClock(time.Unix(0, 0)), roundtable.TextTask{Topic: "homework"}, "t", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Start(ctx); err != nil {
		t.Fatal(err)
	}
	steps := []roundtable.Action{roundtable.Say{Actor: "ann", Text: "keep it"}, roundtable.Say{Actor: "ada", Text: "abolish it"}, nil,
		roundtable.Skip{Actor: "ann"}, roundtable.Skip{Actor: "ada"}, nil,
		roundtable.Report{Actor: "ann", Values: []float64{-2}}, roundtable.Report{Actor: "ada", Values: []float64{1}, Reason: "less sure"}, nil}
	for _, a := range steps {
		if a == nil {
			if _, err := tb.Close(ctx, roundtable.Position{}, roundtable.ClosedAllActed); err != nil {
				t.Fatal(err)
			}
		} else if err := tb.Do(ctx, a); err != nil {
			t.Fatalf("%T: %v", a, err)
		}
	}
	evs, err := st.Load(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	level := func(seq uint64, l int) roundtable.Annotation {
		r, _ := json.Marshal(map[string]any{"presence": true, "level": l})
		return roundtable.Annotation{Table: "t", Seq: seq, Instrument: "stance", Model: "m", Result: r}
	}
	var anns []roundtable.Annotation
	for _, e := range evs {
		if _, ok := e.Data.(roundtable.MessagePosted); ok {
			anns = append(anns, level(e.Seq, map[string]int{"ann": -2, "ada": 2}[e.Actor]))
		}
	}
	old, _ := json.Marshal(SelfReport{Participant: "ann", Round: 1, Level: 0})
	anns = append(anns, roundtable.Annotation{Table: "t", Seq: 3, Instrument: SelfReportInstrument, Model: SelfReportModel("ann"), Result: old})
	tab, err := Build(evs, anns, 0)
	if err != nil {
		t.Fatal(err)
	}
	ann, ada := tab.Participant("ann"), tab.Participant("ada")
	if len(ann.SelfReports) != 1 || ann.SelfReports[0].Level != -2 || len(ada.SelfReports) != 1 || ada.SelfReports[0].Level != 1 {
		t.Fatalf("self-reports: Ann %+v, Ada %+v", ann.SelfReports, ada.SelfReports)
	}
	// Ann: -2 and -2 agree; Ada: 1 against the classifier's 2 disagree.
	if s := Summarize([]*Table{tab}); s.KappaN != 2 {
		t.Errorf("kappa over %d pairs, want 2", s.KappaN)
	}
}

// The answer of an agent with no opinion model (the middle of the scale,
// marked so) is not read as a self-report.
func TestNoOpinionAnswersAreNoSelfReports(t *testing.T) {
	sc := roundtable.StanceScale("Homework should be abolished.")
	r := &surveyReader{protocol: &roundtable.Protocol{Round: []roundtable.Step{{Phase: roundtable.PhaseSurvey, Scale: sc}}}}
	r.read(roundtable.Event{Data: roundtable.PhaseOpened{Round: 1, Phase: roundtable.PhaseSurvey}})
	no := roundtable.NoOpinion(*sc, "a rule-based trader")
	if _, ok := r.read(roundtable.Event{Actor: "bot", Data: roundtable.SurveyAnswered{Round: 1, Values: no.Values, Reason: no.Reason}}); ok {
		t.Error("a no-opinion answer was read as a self-report")
	}
	if _, ok := r.read(roundtable.Event{Actor: "ann", Data: roundtable.SurveyAnswered{Round: 1, Values: []float64{0}}}); !ok {
		t.Error("a person's neutral answer was not read as a self-report")
	}
}
