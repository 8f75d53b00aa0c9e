package roundtable_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Markers placed in what must stay sealed.
const (
	markMessage   = "MARK-SEALED-MESSAGE"
	markProposal  = "MARK-PROPOSAL-TEXT"
	markReasoning = "MARK-PRIVATE-REASONING"
	markBallot    = "B" // bob's choice; see ballotSeen
	markWhy       = "MARK-VOTE-REASON"
)

// sealedTable is a sample table (alice, bob and two agents) taken through
// round 1 phase by phase; at each stop fn sees the log so far.
func sealedTable(t *testing.T, mode roundtable.Mode, fn func(stop string, evs []roundtable.Event, tb *roundtable.Table)) {
	t.Helper()
	ctx := context.Background()
	st, clock := roundtabletest.NewMemStore(), roundtabletest.NewClock(t0)
	cfg := roundtabletest.SampleConfig(2)
	cfg.Mode = mode
	cfg.Participants = append(cfg.Participants, roundtabletest.SampleJoiner())
	tb, err := roundtable.Create(ctx, st, clock, roundtabletest.SampleTask(), "t", cfg)
	must(t, err)
	log := func() []roundtable.Event {
		evs, err := st.Load(ctx, "t")
		must(t, err)
		return evs
	}
	must(t, tb.Start(ctx))
	must(t, tb.Do(ctx, roundtable.Say{Actor: "alice", Text: markMessage}))
	fn("message", log(), tb)
	closePhase(t, tb)
	must(t, tb.Do(ctx, roundtable.Propose{Actor: "alice", Proposal: roundtable.Proposal{Text: markProposal}, Reasoning: markReasoning}))
	must(t, tb.Do(ctx, roundtable.Propose{Actor: "bot-1", Proposal: roundtable.Proposal{Text: "Build a park"}, Reasoning: markReasoning}))
	must(t, tb.Do(ctx, roundtable.Skip{Actor: "bot-2", Reasoning: markReasoning}))
	fn("proposal", log(), tb)
	closePhase(t, tb)
	must(t, tb.Do(ctx, roundtable.Cast{Actor: "alice", Ballot: vote.Ballot{Choice: "B", Reason: "  " + markWhy + " "}}))
	_ = tb.Do(ctx, roundtable.Cast{Actor: "bot-2", Ballot: vote.Ballot{Choice: "Z"}}) // rejected
	fn("vote", log(), tb)
	closePhase(t, tb)
	fn("round 2", log(), tb)
	must(t, tb.Stop(ctx, "", roundtable.EndStopped))
	fn("ended", log(), tb)
}

func encode(t *testing.T, evs []roundtable.Event) string {
	t.Helper()
	b, err := json.Marshal(evs)
	must(t, err)
	return string(b)
}

// ballotSeen reports whether alice's ballot is in a log.
func ballotSeen(s string) bool { return strings.Contains(s, `"voter":"alice","choice":"B"`) }

func TestVisibleWithholdsWhatIsSealedUntilItsPhaseCloses(t *testing.T) {
	type seen struct{ message, proposal, reasoning, ballot bool }
	want := map[string]seen{
		"message":  {},
		"proposal": {message: true},
		"vote":     {message: true, proposal: true},
		"round 2":  {message: true, proposal: true, ballot: true},
		"ended":    {message: true, proposal: true, ballot: true},
	}
	viewers := map[string]roundtable.Viewer{"bob": {Participant: "bob"}, "onlooker": {}, "organiser": {Researcher: true}}
	sealedTable(t, roundtable.Sealed, func(stop string, evs []roundtable.Event, _ *roundtable.Table) {
		for name, v := range viewers {
			vis := roundtable.Visible(evs, v)
			out := encode(t, vis)
			got := seen{strings.Contains(out, markMessage), strings.Contains(out, markProposal), strings.Contains(out, markReasoning), ballotSeen(out)}
			w := want[stop]
			w.reasoning = stop == "ended" && v.Researcher
			if got != w {
				t.Errorf("%s at the %s stop sees %+v, want %+v", name, stop, got, w)
			}
			if why := strings.Contains(out, `"reason":"`+markWhy+`"`); why != w.ballot {
				t.Errorf("%s at the %s stop sees the vote's reason %v, its ballot %v: the reason is sealed with the ballot", name, stop, why, w.ballot)
			}
			if len(vis) != len(evs) {
				t.Errorf("%s: %d events for %d", name, len(vis), len(evs))
			}
			if _, err := roundtable.Replay(vis); err != nil {
				t.Errorf("%s's copy at the %s stop does not replay: %v", name, stop, err)
			}
		}
		own := encode(t, roundtable.Visible(evs, roundtable.Viewer{Participant: "alice"}))
		if !strings.Contains(own, markMessage) || stop != "message" && (!strings.Contains(own, markReasoning) || !strings.Contains(own, markProposal)) {
			t.Errorf("alice does not see her own message, proposal and reasoning at the %s stop", stop)
		}
	})
}

func TestVisibleShowsLiveMessagesAsTheyCome(t *testing.T) {
	sealedTable(t, roundtable.Live, func(stop string, evs []roundtable.Event, _ *roundtable.Table) {
		out := encode(t, roundtable.Visible(evs, roundtable.Viewer{Participant: "bob"}))
		if !strings.Contains(out, markMessage) {
			t.Errorf("bob does not see a live-mode message at the %s stop", stop)
		}
		if stop == "proposal" && strings.Contains(out, markProposal) {
			t.Error("bob sees a proposal of the open proposal phase")
		}
	})
}

// TestViewAgreesWithVisible: the agents' prompt view and every viewer's copy
// of the log come from the same rule, so they show the same messages and
// proposals of the current round at every stop.
func TestViewAgreesWithVisible(t *testing.T) {
	sealedTable(t, roundtable.Sealed, func(stop string, evs []roundtable.Event, tb *roundtable.Table) {
		if stop == "ended" {
			return // View is for participants asked to act
		}
		for _, id := range []string{"alice", "bob", "bot-1", "bot-2"} {
			view, err := tb.View(t.Context(), id)
			must(t, err)
			s, err := roundtable.Replay(roundtable.Visible(evs, roundtable.Viewer{Participant: id}))
			must(t, err)
			got, want := messagesAndProposals(t, view.Current), messagesAndProposals(t, *s.Current())
			if got != want {
				t.Errorf("%s stop, %s: View shows %s, Visible %s", stop, id, got, want)
			}
		}
	})
}

func messagesAndProposals(t *testing.T, r roundtable.RoundRecord) string {
	t.Helper()
	type seen struct {
		Messages  []string
		Proposals []roundtable.ProposalRecord
	}
	var s seen
	for _, m := range r.Messages {
		s.Messages = append(s.Messages, m.From+": "+m.Text)
	}
	if len(r.Proposals) > 0 {
		s.Proposals = r.Proposals
	}
	b, err := json.Marshal(s)
	must(t, err)
	return string(b)
}
