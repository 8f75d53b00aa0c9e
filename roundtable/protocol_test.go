package roundtable_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/questionnaire"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

func protocolTable(t *testing.T, pr *roundtable.Protocol, rounds, n int) (*roundtable.Table, *logStore) {
	t.Helper()
	tb, st := newTable(t, roundtable.Config{Protocol: pr, Rounds: rounds, Seed: 42, Participants: people(n)})
	must(t, tb.Start(context.Background()))
	return tb, &logStore{st.Load}
}

type logStore struct {
	load func(context.Context, string) ([]roundtable.Event, error)
}

func turn(tb *roundtable.Table) (roundtable.Phase, []string) {
	var p roundtable.Phase
	var who []string
	tb.Read(func(s *roundtable.State) {
		p = s.Phase
		for _, q := range s.Pending() {
			who = append(who, q.ID)
		}
	})
	return p, who
}

func TestChatroomTurnsAreRandomOtherThanTheLastAndEnforced(t *testing.T) {
	ctx := context.Background()
	tb, st := protocolTable(t, chatroom.Preset(protocol.Settings{Question: "Taxes should rise."}), 6, 4)
	last := ""
	var speakers []string
	for r := 1; r <= 6; r++ {
		p, who := turn(tb)
		if p != roundtable.PhaseMessage || len(who) != 1 || who[0] == last {
			t.Fatalf("round %d: phase %s, turn %v after %q", r, p, who, last)
		}
		for _, q := range people(4) {
			if q.ID == who[0] {
				continue
			}
			err := tb.Do(ctx, roundtable.Say{Actor: q.ID, Text: "out of turn"})
			if roundtable.ErrorCode(err) != roundtable.Forbidden || !strings.Contains(roundtable.ErrorMessage(err), "not your turn") {
				t.Fatalf("out-of-turn message by %s: %v", q.ID, err)
			}
			break
		}
		must(t, tb.Do(ctx, roundtable.Say{Actor: who[0], Text: "my view, round " + string(rune('0'+r))}))
		if !tb.Ready() {
			t.Fatal("the phase is not ready after its one speaker spoke")
		}
		closePhase(t, tb)
		last = who[0]
		speakers = append(speakers, last)
	}
	p, who := turn(tb)
	if p != roundtable.PhasePrivate || len(who) != 3 || strings.Contains(strings.Join(who, ","), last) {
		t.Fatalf("final step: phase %s, turn %v (last speaker %s)", p, who, last)
	}
	for _, id := range who {
		must(t, tb.Do(ctx, roundtable.Say{Actor: id, Text: "what I really think"}))
	}
	closePhase(t, tb)
	p, who = turn(tb)
	if p != roundtable.PhaseSurvey || len(who) != 4 {
		t.Fatalf("survey: phase %s, turn %v", p, who)
	}
	err := tb.Do(ctx, roundtable.Report{Actor: "p1", Values: []float64{0.5}})
	if roundtable.ErrorCode(err) != roundtable.Invalid || !strings.Contains(roundtable.ErrorMessage(err), "steps of 1") {
		t.Errorf("half a stance level: %v", err)
	}
	for i, id := range who {
		must(t, tb.Do(ctx, roundtable.Report{Actor: id, Values: []float64{float64(i%5 - 2)}, Reason: "because"}))
	}
	closePhase(t, tb)
	s := tb.Snapshot()
	if s.Status != roundtable.StatusEnded || s.EndReason != roundtable.EndRounds {
		t.Fatalf("status %s, reason %q", s.Status, s.EndReason)
	}
	v, err := tb.View(t.Context(), "p1")
	must(t, err)
	for _, r := range append(v.History, v.Current) {
		for _, a := range r.Surveys {
			if a.By != "p1" {
				t.Errorf("p1 sees %s's survey answer", a.By)
			}
		}
		for _, m := range r.Messages {
			if m.Private && m.From != "p1" {
				t.Errorf("p1 sees %s's private message", m.From)
			}
		}
	}
	// The same seed draws the same speakers; the log replays to the same state.
	tb2, _ := protocolTable(t, chatroom.Preset(protocol.Settings{}), 6, 4)
	_, first := turn(tb2)
	if first[0] != speakers[0] {
		t.Errorf("another table with seed 42 starts with %s, not %s", first[0], speakers[0])
	}
	events, err := st.load(ctx, "t1")
	must(t, err)
	replayed, err := roundtable.Replay(events)
	must(t, err)
	a, _ := json.Marshal(replayed)
	b, _ := json.Marshal(s)
	if string(a) != string(b) {
		t.Error("the replayed state differs from the live one")
	}
}

func TestDyadsPairWritesToItsListenerWhoReports(t *testing.T) {
	ctx := context.Background()
	tb, _ := protocolTable(t, dyads.Preset(protocol.Settings{}), 3, 5)
	for r := 1; r <= 3; r++ {
		var pair []string
		tb.Read(func(s *roundtable.State) { pair = s.Current().Pair })
		if len(pair) != 2 || pair[0] == pair[1] {
			t.Fatalf("round %d: pair %v", r, pair)
		}
		_, who := turn(tb)
		if !reflect.DeepEqual(who, pair[:1]) {
			t.Fatalf("round %d: turn %v, want the writer %s", r, who, pair[0])
		}
		other := "p1"
		if other == pair[1] || other == pair[0] {
			other = "p2"
			if other == pair[1] || other == pair[0] {
				other = "p3"
			}
		}
		err := tb.Do(ctx, roundtable.Say{Actor: pair[0], To: []string{other}, Text: "hello"})
		if roundtable.ErrorCode(err) != roundtable.Invalid || !strings.Contains(roundtable.ErrorMessage(err), "you write to") {
			t.Fatalf("message to a third party: %v", err)
		}
		must(t, tb.Do(ctx, roundtable.Say{Actor: pair[0], Text: "the claim is true"}))
		closePhase(t, tb)
		_, who = turn(tb)
		if !reflect.DeepEqual(who, pair[1:]) {
			t.Fatalf("round %d: survey turn %v, want the listener %s", r, who, pair[1])
		}
		err = tb.Do(ctx, roundtable.Report{Actor: pair[0], Values: []float64{1}})
		if roundtable.ErrorCode(err) != roundtable.Forbidden {
			t.Errorf("the writer reported: %v", err)
		}
		must(t, tb.Do(ctx, roundtable.Report{Actor: pair[1], Values: []float64{1.25}}))
		closePhase(t, tb)
		s := tb.Snapshot()
		m := s.Rounds[r-1].Messages[0]
		if !reflect.DeepEqual(m.To, pair[1:]) {
			t.Errorf("round %d: message to %v, want %v", r, m.To, pair[1:])
		}
	}
	if s := tb.Snapshot(); s.Status != roundtable.StatusEnded {
		t.Errorf("status %s after 3 rounds", s.Status)
	}
}

func TestPanelStopsWhenSentimentsConverge(t *testing.T) {
	ctx := context.Background()
	tb, _ := protocolTable(t, panel.Preset(protocol.Settings{Items: []string{"Ann", "Ben"}, Tolerance: 0.01}), 10, 2)
	answers := [][]float64{{0.5, -0.2}, {0.3, -0.1}, {0.305, -0.1}}
	for r, vals := range answers {
		for _, id := range []string{"p1", "p2"} { // in turn: a phase each
			must(t, tb.Do(ctx, roundtable.Say{Actor: id, Text: "Ann is strong; Ben is not."}))
			closePhase(t, tb)
		}
		if err := tb.Do(ctx, roundtable.Report{Actor: "p1", Values: vals[:1]}); roundtable.ErrorCode(err) != roundtable.Invalid {
			t.Fatalf("one value for two items: %v", err)
		}
		for _, id := range []string{"p1", "p2"} {
			must(t, tb.Do(ctx, roundtable.Report{Actor: id, Values: vals}))
		}
		closePhase(t, tb)
		s := tb.Snapshot()
		if ended := s.Status == roundtable.StatusEnded; ended != (r == 2) {
			t.Fatalf("round %d: status %s", r+1, s.Status)
		}
	}
	if s := tb.Snapshot(); s.EndReason != roundtable.EndConvergence || len(s.Rounds) != 3 {
		t.Errorf("end %q after %d rounds", s.EndReason, len(s.Rounds))
	}
}

func TestProtocolWithVoteKeepsRoundTableOrder(t *testing.T) {
	ctx := context.Background()
	pr := &roundtable.Protocol{Round: []roundtable.Step{
		{Phase: roundtable.PhaseProposal}, {Phase: roundtable.PhaseVote},
		{Phase: roundtable.PhaseSurvey, Scale: roundtable.StanceScale("")}},
		Stop: roundtable.StopRule{Kind: roundtable.StopAgreement}}
	tb, _ := protocolTable(t, pr, 5, 3)
	for _, id := range []string{"p1", "p2", "p3"} {
		must(t, tb.Do(ctx, roundtable.Propose{Actor: id, Proposal: roundtable.Proposal{Text: "tacos"}}))
	}
	closePhase(t, tb)
	if p, _ := turn(tb); p != roundtable.PhaseVote {
		t.Fatalf("phase %s after proposals", p)
	}
	for _, id := range []string{"p1", "p2", "p3"} {
		must(t, tb.Do(ctx, roundtable.Cast{Actor: id, Ballot: vote.Ballot{Choice: "A"}}))
	}
	closePhase(t, tb)
	if p, _ := turn(tb); p != roundtable.PhaseSurvey {
		t.Fatalf("phase %s after the vote", p)
	}
	closePhase(t, tb)
	s := tb.Snapshot()
	if s.EndReason != roundtable.EndAgreement || s.Output == nil || s.Output.Proposal.Text != "tacos" {
		t.Errorf("end %q output %v", s.EndReason, s.Output)
	}
}

func TestProtocolValidationNamesTheField(t *testing.T) {
	cases := map[string]roundtable.Config{
		"protocol.round: a round needs":              {Protocol: &roundtable.Protocol{}},
		"protocol.round[0]: a vote needs a proposal": {Protocol: &roundtable.Protocol{Round: []roundtable.Step{{Phase: roundtable.PhaseVote}}}},
		"protocol.round[0].scale":                    {Protocol: &roundtable.Protocol{Round: []roundtable.Step{{Phase: roundtable.PhaseSurvey}}}},
		"protocol.round[0].speakers: \"listener\"":   {Protocol: &roundtable.Protocol{Round: []roundtable.Step{{Phase: roundtable.PhaseMessage, Speakers: roundtable.SpeakListener}}}},
		"protocol.final[0]: the final steps":         {Protocol: &roundtable.Protocol{Round: []roundtable.Step{{Phase: roundtable.PhaseMessage}}, Final: []roundtable.Step{{Phase: roundtable.PhaseProposal}}}},
		"protocol.stop.tolerance":                    {Protocol: &roundtable.Protocol{Round: []roundtable.Step{{Phase: roundtable.PhaseMessage}}, Stop: roundtable.StopRule{Kind: roundtable.StopConvergence}}},
		"early_stop: a table with a protocol":        {Protocol: chatroom.Preset(protocol.Settings{}), EarlyStop: roundtable.StopFirst},
	}
	for want, cfg := range cases {
		cfg.Rule = "plurality"
		err := cfg.WithDefaults().Validate()
		if err == nil || !strings.HasPrefix(roundtable.ErrorMessage(err), want) {
			t.Errorf("%s: got %v", want, err)
		}
	}
}

func TestStoppingAProtocolTableCountsFinishedRounds(t *testing.T) {
	ctx := context.Background()
	ended := func(st *logStore) int {
		events, err := st.load(ctx, "t1")
		must(t, err)
		return events[len(events)-1].Data.(roundtable.TableEnded).Rounds
	}
	tb, st := protocolTable(t, dyads.Preset(protocol.Settings{}), 5, 3)
	var writer string
	tb.Read(func(s *roundtable.State) { writer = s.Turn[0] })
	must(t, tb.Do(ctx, roundtable.Say{Actor: writer, Text: "hi"}))
	closePhase(t, tb) // round 1's survey is open: round 1 has not finished
	must(t, tb.Stop(ctx, "", ""))
	if n := ended(st); n != 0 {
		t.Errorf("stopped in round 1's survey: %d rounds played, want 0", n)
	}
	tb, st = protocolTable(t, chatroom.Preset(protocol.Settings{}), 1, 3)
	tb.Read(func(s *roundtable.State) { writer = s.Turn[0] })
	must(t, tb.Do(ctx, roundtable.Say{Actor: writer, Text: "hi"}))
	closePhase(t, tb) // the final private phase is open: round 1 has finished
	must(t, tb.Stop(ctx, "", ""))
	if n := ended(st); n != 1 {
		t.Errorf("stopped in the final steps: %d rounds played, want 1", n)
	}
}

func TestPlaysNamesTheSchedulePhases(t *testing.T) {
	chat := &roundtable.Protocol{Round: []roundtable.Step{{Phase: roundtable.PhaseMessage}}, Final: []roundtable.Step{{Phase: roundtable.PhasePrivate}, {Phase: roundtable.PhaseSurvey}}}
	var rt *roundtable.Protocol
	for _, c := range []struct {
		p    *roundtable.Protocol
		ph   roundtable.Phase
		want bool
	}{
		{rt, roundtable.PhaseVote, true}, {rt, roundtable.PhaseProposal, true}, {rt, roundtable.PhaseSurvey, false},
		{chat, roundtable.PhaseMessage, true}, {chat, roundtable.PhaseSurvey, true}, {chat, roundtable.PhasePrivate, true}, {chat, roundtable.PhaseVote, false}, {chat, roundtable.PhaseProposal, false},
	} {
		if got := c.p.Plays(c.ph); got != c.want {
			t.Errorf("%v.Plays(%v) = %v, want %v", c.p, c.ph, got, c.want)
		}
	}
}

// A table that never votes does not tell its agents to decide together.
func TestBriefOfATableThatNeverVotes(t *testing.T) {
	for name, c := range map[string]struct {
		pr   *roundtable.Protocol
		want string
	}{
		"chatroom":      {chatroom.Preset(protocol.Settings{Question: "Taxes should rise."}), "Nobody proposes or votes"},
		"deliberation":  {nil, "Decide together"},
		"questionnaire": {questionnaire.Preset(protocol.Settings{Question: "Taxes should rise."}), "Nobody writes, proposes or votes at this table: answer each survey"},
	} {
		t.Run(name, func(t *testing.T) {
			tb, _ := newTable(t, roundtable.Config{Protocol: c.pr, Rounds: 2, Seed: 1, Participants: people(3)})
			must(t, tb.Start(t.Context()))
			v, err := tb.View(t.Context(), "p1")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(v.Brief, c.want) || !strings.Contains(v.Brief, "lunch") {
				t.Errorf("brief %q; want %q and the topic", v.Brief, c.want)
			}
		})
	}
}

// Retopic moves the surveys that ask about the old topic to the new one,
// on a copy: the preset it came from keeps its question.
func TestRetopicAsksAboutTheNewTopicOnACopy(t *testing.T) {
	pr := chatroom.Preset(protocol.Settings{Question: "Old."})
	got := pr.Retopic("Old.", "New.")
	if q := got.Final[1].Scale.Question; q != "New." {
		t.Errorf("the copy surveys %q", q)
	}
	if q := pr.Final[1].Scale.Question; q != "Old." {
		t.Errorf("the preset now surveys %q", q)
	}
	if other := pr.Retopic("Another.", "New."); other != pr {
		t.Error("a protocol with no survey of the old topic was copied")
	}
	if (*roundtable.Protocol)(nil).Retopic("a", "b") != nil {
		t.Error("nil did not stay nil")
	}
}
