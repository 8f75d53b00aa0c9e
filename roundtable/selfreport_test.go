package roundtable_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

func selfReportAudit() *roundtable.AuditSpec {
	return &roundtable.AuditSpec{Statement: "Homework should be abolished.", SelfReport: true}
}

// An audited RoundTable table that asks for self-reports gets a stance
// survey after every vote: recorded in its config, with the vote's
// deadline, answered by Report as SurveyAnswered events; the table goes on
// when someone never answers.
func TestSelfReportsAreASurveyAtTheEndOfEachRound(t *testing.T) {
	ctx := context.Background()
	tb, st := newTable(t, roundtable.Config{Rounds: 2, Audit: selfReportAudit(),
		Durations: roundtable.Durations{Message: time.Minute, Proposal: time.Minute, Vote: 2 * time.Minute}})
	pr := tb.Snapshot().Config.Protocol
	if pr == nil || pr.Name != roundtable.ProtocolRoundTable || len(pr.Round) != 4 || pr.Round[3].Phase != roundtable.PhaseSurvey ||
		!roundtable.IsSelfReport(pr.Round[3].Scale) || pr.Round[3].Scale.Question != "Homework should be abolished." {
		t.Fatalf("recorded schedule %+v", pr)
	}
	must(t, tb.Start(ctx))
	for r := 1; r <= 2; r++ {
		playRound(t, tb, []string{"pizza", "", ""}, []string{"A", "A", ""})
		s := tb.Snapshot()
		if s.Phase != roundtable.PhaseSurvey || s.Round != r || s.Deadline.Sub(t0) < 2*time.Minute {
			t.Fatalf("after round %d's vote: round %d %s phase, deadline %v", r, s.Round, s.Phase, s.Deadline)
		}
		must(t, tb.Do(ctx, roundtable.Report{Actor: "p1", Values: []float64{2}}))
		err := tb.Do(ctx, roundtable.Report{Actor: "p2", Values: []float64{0.5}})
		if roundtable.ErrorCode(err) != roundtable.Invalid || !strings.Contains(roundtable.ErrorMessage(err), "steps of 1") {
			t.Errorf("a value between levels: %v", err)
		}
		if _, err := tb.Close(ctx, s.Position(), roundtable.ClosedDeadline); err != nil { // p2 and p3 never answer
			t.Fatal(err)
		}
	}
	s := tb.Snapshot()
	if s.Status != roundtable.StatusEnded || len(s.Rounds) != 2 || len(s.Answers(1)) != 1 || s.Answers(2)["p1"][0] != 2 {
		t.Fatalf("status %s, rounds %d, answers %v %v", s.Status, len(s.Rounds), s.Answers(1), s.Answers(2))
	}
	evs, err := st.Load(ctx, "t1")
	must(t, err)
	n := 0
	for _, e := range evs {
		if _, ok := e.Data.(roundtable.SurveyAnswered); ok {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d SurveyAnswered events, want 2", n)
	}
}

// First agreement becomes the schedule's agreement stop; consecutive
// agreements cannot hold a survey and are refused, naming both keys.
func TestSelfReportsKeepTheStopRule(t *testing.T) {
	tb, _ := newTable(t, roundtable.Config{Rounds: 3, EarlyStop: roundtable.StopFirst, Audit: selfReportAudit()})
	if c := tb.Snapshot().Config; c.EarlyStop != roundtable.StopNever || c.Protocol.Stop.Kind != roundtable.StopAgreement {
		t.Errorf("first agreement: early_stop %q, stop %+v", c.EarlyStop, c.Protocol.Stop)
	}
	_, err := roundtable.Create(context.Background(), roundtabletest.NewMemStore(), roundtabletest.NewClock(t0), roundtable.TextTask{Topic: "x"}, "t2",
		roundtable.Config{Rule: "plurality", Participants: people(2), EarlyStop: roundtable.StopConsecutive, Audit: selfReportAudit()})
	if msg := roundtable.ErrorMessage(err); !strings.Contains(msg, "self_report") || !strings.Contains(msg, "early_stop") {
		t.Errorf("consecutive agreements with self-reports: %v", err)
	}
	// A protocol with a survey keeps it; one without gains a stance survey.
	pr := dyads.Preset(protocol.Settings{Question: "q"})
	tb, _ = newTable(t, roundtable.Config{Rounds: 2, Protocol: pr, Audit: selfReportAudit()})
	if got := tb.Snapshot().Config.Protocol.Round; len(got) != 2 {
		t.Errorf("dyads gained a step: %+v", got)
	}
	tb, _ = newTable(t, roundtable.Config{Rounds: 2, Protocol: chatroom.Preset(protocol.Settings{Question: "q"}), Audit: selfReportAudit()})
	if got := tb.Snapshot().Config.Protocol.Round; len(got) != 2 || got[1].Phase != roundtable.PhaseSurvey {
		t.Errorf("chatroom's round: %+v", got)
	}
	// The panel's round surveys sentiment: no room for a stance survey.
	_, err = roundtable.Create(context.Background(), roundtabletest.NewMemStore(), roundtabletest.NewClock(t0), roundtable.TextTask{Topic: "x"}, "t3",
		roundtable.Config{Rule: "plurality", Participants: people(2), Protocol: panel.Preset(protocol.Settings{}), Audit: selfReportAudit()})
	if msg := roundtable.ErrorMessage(err); !strings.Contains(msg, "self_report") || !strings.Contains(msg, "panel") {
		t.Errorf("a panel with self-reports: %v", err)
	}
}

// A survey answer is its author's: other participants and onlookers get a
// withheld event, the organiser's export gets it once its phase has closed
// (without the reason, which only its author and a researcher after the
// end see), and every copy replays.
func TestSurveyAnswersAreVisibleToTheirAuthorAndTheOrganisersExport(t *testing.T) {
	ctx := context.Background()
	tb, st := newTable(t, roundtable.Config{Rounds: 1, Audit: selfReportAudit()})
	must(t, tb.Start(ctx))
	playRound(t, tb, []string{"pizza", "", ""}, []string{"A", "A", ""})
	must(t, tb.Do(ctx, roundtable.Report{Actor: "p1", Values: []float64{-1}, Reason: "my reason"}))
	answer := func(v roundtable.Viewer) (roundtable.Event, roundtable.Stage) {
		evs, err := st.Load(ctx, "t1")
		must(t, err)
		vis := roundtable.Visible(evs, v)
		if _, err := roundtable.Replay(vis); err != nil {
			t.Fatalf("%+v's copy does not replay: %v", v, err)
		}
		for _, e := range vis {
			if e.Actor == "p1" && (e.Type() == "survey_answered" || e.Type() == "withheld") {
				if w, ok := e.Data.(roundtable.Withheld); !ok || w.Type == "survey_answered" {
					return e, roundtable.StageOf(evs)
				}
			}
		}
		t.Fatalf("no answer of p1 in %+v's copy", v)
		return roundtable.Event{}, roundtable.Stage{}
	}
	organiser := roundtable.Viewer{Participant: "p2", Organiser: true}
	open := map[string]roundtable.Viewer{"p2": {Participant: "p2"}, "onlooker": {}, "organiser while open": organiser,
		"researcher while running": {Researcher: true}}
	for name, v := range open {
		if e, _ := answer(v); e.Type() != "withheld" {
			t.Errorf("%s sees p1's open survey answer: %+v", name, e.Data)
		}
	}
	if e, _ := answer(roundtable.Viewer{Participant: "p1"}); e.Data.(roundtable.SurveyAnswered).Reason != "my reason" {
		t.Errorf("p1's own answer: %+v", e.Data)
	}
	closePhase(t, tb)
	if e, _ := answer(roundtable.Viewer{Participant: "p2"}); e.Type() != "withheld" {
		t.Errorf("p2 sees p1's closed survey answer: %+v", e.Data)
	}
	e, g := answer(organiser)
	if d, ok := e.Data.(roundtable.SurveyAnswered); !ok || d.Values[0] != -1 || d.Reason != "" || !g.Ended {
		t.Errorf("the organiser's export of the ended table: %+v", e.Data)
	}
	if e, _ := answer(roundtable.Viewer{Researcher: true}); e.Data.(roundtable.SurveyAnswered).Reason != "my reason" {
		t.Errorf("a researcher's export after the end: %+v", e.Data)
	}
	// The agents' view: p2 never sees p1's answer.
	v, err := tb.View(t.Context(), "p2")
	must(t, err)
	for _, r := range v.History {
		if len(r.Surveys) != 0 {
			t.Errorf("p2's view holds surveys %+v", r.Surveys)
		}
	}
}

// A log written before self-reports became a survey (an audited table
// with self_report, no protocol, and a stop rule new tables with
// self-reports may not use) replays, and its table goes on with
// RoundTable's three phases.
func TestOldSelfReportLogReplaysWithoutSurvey(t *testing.T) {
	ctx := context.Background()
	tb, st := newTable(t, roundtable.Config{Rounds: 2})
	must(t, tb.Start(ctx))
	playRound(t, tb, []string{"pizza", "", ""}, []string{"A", "A", ""})
	evs, err := st.Load(ctx, "t1")
	must(t, err)
	created := evs[0].Data.(roundtable.TableCreated)
	created.Config.Audit = selfReportAudit()
	created.Config.EarlyStop = roundtable.StopConsecutive // which a new table with self-reports may not use
	evs[0].Data = created
	old := roundtabletest.NewMemStore()
	must(t, old.Append(ctx, "t1", evs))
	re, err := roundtable.Open(ctx, old, roundtabletest.NewClock(t0), roundtable.TextTask{Topic: "lunch"}, "t1")
	must(t, err)
	if s := re.Snapshot(); s.Config.Protocol != nil || s.Round != 2 || s.Phase != roundtable.PhaseMessage {
		t.Errorf("old table resumed at round %d %s phase, protocol %v", s.Round, s.Phase, s.Config.Protocol)
	}
}
