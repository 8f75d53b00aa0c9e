package roundtable_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
)

// seen lists the authors of the current round's messages in id's view.
func seen(t *testing.T, tb *roundtable.Table, id string) []string {
	t.Helper()
	v, err := tb.View(t.Context(), id)
	must(t, err)
	var out []string
	for _, m := range v.Current.Messages {
		out = append(out, m.From)
	}
	return out
}

// The panel's judges speak as Sentimental Agents' do: one at a time in
// seat order, each turn a phase of its own, each judge reading the
// opinions given before its own (and not one given after); a deadline set
// for an earlier turn does not close a later one; one who leaves is passed
// over; the log replays.
func TestPanelJudgesSpeakInTurnEachSeeingThoseBefore(t *testing.T) {
	ctx := context.Background()
	tb, st := protocolTable(t, panel.Preset(protocol.Settings{Items: []string{"Ann"}, Tolerance: 1e-3}), 2, 4)
	if _, who := turn(tb); !slices.Equal(who, []string{"p1"}) {
		t.Fatalf("first turn: %v, want p1", who)
	}
	if err := tb.Do(ctx, roundtable.Say{Actor: "p2", Text: "too soon"}); !roundtable.NotYourTurn(err) {
		t.Fatalf("p2 before p1: %v, want not your turn", err)
	}
	first := tb.Snapshot().Position()
	must(t, tb.Do(ctx, roundtable.Say{Actor: "p1", Text: "Ann is strong."}))
	closePhase(t, tb)
	if _, who := turn(tb); !slices.Equal(who, []string{"p2"}) {
		t.Fatalf("second turn: %v, want p2", who)
	}
	if got := seen(t, tb, "p2"); !slices.Equal(got, []string{"p1"}) {
		t.Errorf("p2, speaking second, reads %v, want p1's opinion", got)
	}
	if closed, err := tb.Close(ctx, first, roundtable.ClosedDeadline); err != nil || closed {
		t.Fatalf("the first turn's deadline closed the second turn (%v, %v)", closed, err)
	}
	must(t, tb.Do(ctx, roundtable.Say{Actor: "p2", Text: "Ann is weak."}))
	must(t, tb.Leave(ctx, "p3", "leave"))
	closePhase(t, tb)
	if _, who := turn(tb); !slices.Equal(who, []string{"p4"}) {
		t.Fatalf("after p3 left: %v, want p4", who)
	}
	if got := seen(t, tb, "p4"); !slices.Equal(got, []string{"p1", "p2"}) {
		t.Errorf("p4 reads %v, want p1 and p2", got)
	}
	closePhase(t, tb) // p4 lets its turn pass
	if ph, who := turn(tb); ph != roundtable.PhaseSurvey || len(who) != 3 {
		t.Fatalf("after the last turn: %s for %v, want everyone's survey", ph, who)
	}
	must(t, tb.Do(ctx, roundtable.Report{Actor: "p1", Values: []float64{0.5}}))
	if v, err := tb.View(ctx, "p2"); err != nil || len(v.Current.Surveys) != 0 {
		t.Errorf("p2 reads p1's survey answer: %+v (%v)", v.Current.Surveys, err)
	}
	closePhase(t, tb)
	if _, who := turn(tb); !slices.Equal(who, []string{"p1"}) {
		t.Fatalf("round 2 opens with %v, want p1", who)
	}
	if got := seen(t, tb, "p1"); len(got) != 0 {
		t.Errorf("round 2 before anyone spoke: p1 reads %v", got)
	}
	evs, err := st.load(ctx, "t1")
	must(t, err)
	replayed, err := roundtable.Replay(evs)
	must(t, err)
	if got, want := replayed.Position(), tb.Snapshot().Position(); got != want {
		t.Errorf("replayed at %+v, the table at %+v", got, want)
	}
}

// A log in which the turn goes out of seat order does not replay.
func TestReplayRefusesATurnOutOfOrder(t *testing.T) {
	ctx := context.Background()
	tb, st := protocolTable(t, panel.Preset(protocol.Settings{Items: []string{"Ann"}, Tolerance: 1e-3}), 2, 3)
	must(t, tb.Do(ctx, roundtable.Say{Actor: "p1", Text: "Ann is strong."}))
	closePhase(t, tb)
	evs, err := st.load(ctx, "t1")
	must(t, err)
	last := &evs[len(evs)-1]
	o, ok := last.Data.(roundtable.PhaseOpened)
	if !ok || !slices.Equal(o.Turn, []string{"p2"}) {
		t.Fatalf("last event %T %+v, want p2's turn opened", last.Data, last.Data)
	}
	o.Turn = []string{"p3"}
	last.Data = o
	if _, err := roundtable.Replay(evs); err == nil || !strings.Contains(err.Error(), "turn goes to") {
		t.Errorf("replay of p3 before p2: %v", err)
	}
}

// Simultaneous speaking, the named option, seals every opinion until the
// message phase closes: nobody reads another's before giving their own.
func TestPanelSimultaneousSpeakingSealsOpinions(t *testing.T) {
	ctx := context.Background()
	pr := panel.Preset(protocol.Settings{Items: []string{"Ann"}, Tolerance: 1e-3, Speaking: panel.SpeakSimultaneous})
	tb, _ := protocolTable(t, pr, 2, 3)
	must(t, tb.Do(ctx, roundtable.Say{Actor: "p1", Text: "Ann is strong."}))
	must(t, tb.Do(ctx, roundtable.Say{Actor: "p2", Text: "Ann is weak."}))
	if got := seen(t, tb, "p3"); len(got) != 0 {
		t.Errorf("p3 reads %v before the phase closed", got)
	}
	if got := seen(t, tb, "p2"); !slices.Equal(got, []string{"p2"}) {
		t.Errorf("p2 reads %v, want its own only", got)
	}
	closePhase(t, tb)
	if got := seen(t, tb, "p3"); len(got) != 2 {
		t.Errorf("after the close p3 reads %v", got)
	}
}

// Messages taken in turn show as they come, so a schedule takes turns in
// every message step or in none: another message step would show its
// sealed messages early.
func TestInTurnIsEveryMessageStepOrNone(t *testing.T) {
	pr := &roundtable.Protocol{Round: []roundtable.Step{{Phase: roundtable.PhaseMessage, Speakers: roundtable.SpeakInTurn},
		{Phase: roundtable.PhaseMessage}}}
	if err := pr.Validate(); err == nil || !strings.Contains(err.Error(), "protocol.round[1].speakers") {
		t.Errorf("in-turn beside a simultaneous message step: %v", err)
	}
	pr.Round[1].Speakers = roundtable.SpeakInTurn
	must(t, pr.Validate())
	pr.Round = append(pr.Round, roundtable.Step{Phase: roundtable.PhaseSurvey, Speakers: roundtable.SpeakInTurn, Scale: roundtable.StanceScale("q")})
	if err := pr.Validate(); err == nil || !strings.Contains(err.Error(), "protocol.round[2].speakers") {
		t.Errorf("in-turn survey: %v", err)
	}
}
