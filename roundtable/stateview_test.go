package roundtable_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/questionnaire"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// StateFor is the fold of the visible log (Replay of Visible) without
// the log: every protocol, in both modes, played at random (messages
// private or addressed or with a model of self, proposals with reasoning,
// skips, rejected ballots, failures, survey answers, a participant who
// leaves, extensions, a stop), is compared after every change, for an
// onlooker, participants, someone who never sat, the organiser's export
// and the researcher's. Every state it gave stays as it was while the
// table goes on (they share what they can, read only).
func TestStateForIsTheFoldOfTheVisibleLog(t *testing.T) {
	private := &roundtable.Protocol{Name: "private", Round: []roundtable.Step{{Phase: roundtable.PhaseMessage}, {Phase: roundtable.PhasePrivate},
		{Phase: roundtable.PhaseProposal}, {Phase: roundtable.PhaseVote}, {Phase: roundtable.PhaseSurvey, Scale: roundtable.StanceScale("soup?")}}}
	inTurn := &roundtable.Protocol{Name: "in-turn", Round: []roundtable.Step{{Phase: roundtable.PhaseMessage, Speakers: roundtable.SpeakInTurn},
		{Phase: roundtable.PhasePrivate}, {Phase: roundtable.PhaseProposal}, {Phase: roundtable.PhaseVote}}}
	protocols := map[string]*roundtable.Protocol{"deliberation": nil, "private": private, "in-turn": inTurn,
		"panel":    panel.Preset(protocol.Settings{Items: []string{"Ann", "Ben"}}),
		"chatroom": chatroom.Preset(protocol.Settings{Question: "soup?"}), "questionnaire": questionnaire.Preset(protocol.Settings{}),
		"dyads": dyads.Preset(protocol.Settings{Question: "soup?", TwoWay: true})}
	for name, pr := range protocols {
		for _, mode := range []roundtable.Mode{roundtable.Sealed, roundtable.Live} {
			for seed := range int64(2) {
				t.Run(fmt.Sprintf("%s/%s/%d", name, mode, seed), func(t *testing.T) {
					playChecked(t, pr, mode, seed)
				})
			}
		}
	}
}

// playChecked plays a table at random and checks StateFor after every
// change.
func playChecked(t *testing.T, pr *roundtable.Protocol, mode roundtable.Mode, seed int64) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	ps := []roundtable.Participant{{ID: "p1", Name: "Ann", Kind: roundtable.Human}, {ID: "p2", Name: "Ben", Kind: roundtable.Human},
		{ID: "p3", Name: "Cy", Kind: roundtable.Human}, {ID: "a1", Name: "Agent", Kind: roundtable.Bot, Agent: "x"}}
	cfg := roundtable.Config{Rule: vote.Plurality, Rounds: 3, Mode: mode, Seed: seed, Protocol: pr, Participants: ps,
		Task: roundtable.TaskSpec{Kind: "text", Topic: "soup?"}, Secret: roundtable.Secrecy{Key: "k"},
		Durations: roundtable.Durations{Message: time.Minute, Proposal: time.Minute, Vote: time.Minute}}
	st, clock := roundtabletest.NewMemStore(), roundtabletest.NewClock(time.Unix(1e9, 0))
	tb, err := roundtable.Create(ctx, st, clock, roundtable.TextTask{Topic: "soup?"}, "t", cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := &viewChecker{t: t, tb: tb, store: st, kept: map[*roundtable.State]string{}}
	c.check()
	must(t, tb.Start(ctx))
	c.check()
	for step := 0; step < 150; step++ {
		s := tb.Snapshot()
		if s.Status == roundtable.StatusEnded {
			break
		}
		switch pending := s.Pending(); {
		case rng.IntN(40) == 0 && step > 20:
			must(t, tb.Stop(ctx, "p1", roundtable.EndStopped))
		case rng.IntN(30) == 0 && len(s.Participants) > 3:
			must(t, tb.Leave(ctx, s.Participants[rng.IntN(len(s.Participants))].ID, fmt.Sprintf("leave-%d", step)))
		case rng.IntN(25) == 0:
			_, err := tb.Extend(ctx, "p1", fmt.Sprintf("ext-%d", step), time.Minute)
			must(t, err)
		case len(pending) == 0 || rng.IntN(6) == 0:
			_, err := tb.Close(ctx, s.Position(), roundtable.ClosedDeadline)
			must(t, err)
		default:
			p := pending[rng.IntN(len(pending))]
			if err := tb.Do(ctx, randomAct(rng, s, p.ID, step)); err != nil && roundtable.ErrorCode(err) != roundtable.Invalid {
				t.Fatalf("%s in the %s phase: %v", p.ID, s.Phase, err)
			}
		}
		clock.Advance(time.Second)
		c.check()
	}
	c.unchanged()
}

// randomAct is something participant id may try in s's open phase.
func randomAct(rng *rand.Rand, s *roundtable.State, id string, step int) roundtable.Action {
	key := fmt.Sprintf("k%d", step)
	usage := &roundtable.Usage{Calls: 1, PromptTokens: 10 + step}
	if rng.IntN(10) == 0 {
		return roundtable.Fail{Actor: id, Key: key, Kind: "format", Reason: "garbled", Usage: usage}
	}
	switch s.Phase {
	case roundtable.PhaseMessage, roundtable.PhasePrivate:
		say := roundtable.Say{Actor: id, Key: key, Text: fmt.Sprintf("%s says %d", id, step), Usage: usage}
		if to := s.Participants[rng.IntN(len(s.Participants))].ID; to != id && (s.Phase == roundtable.PhasePrivate || rng.IntN(3) == 0) {
			say.To = []string{to}
		}
		if rng.IntN(2) == 0 {
			say.Self = &roundtable.SelfModel{Description: "me " + id, Priorities: "p", Criteria: []string{"c"}}
		}
		return say
	case roundtable.PhaseProposal:
		if rng.IntN(4) == 0 {
			return roundtable.Skip{Actor: id, Key: key, Reasoning: "nothing new", Usage: usage}
		}
		return roundtable.Propose{Actor: id, Key: key, Proposal: roundtable.Proposal{Text: fmt.Sprintf("soup %d", rng.IntN(3))},
			Reasoning: "because " + id, Usage: usage}
	case roundtable.PhaseVote:
		b := vote.Ballot{Choice: "Z"} // no such candidate: rejected
		if len(s.Candidates) > 0 && rng.IntN(4) != 0 {
			b = vote.Ballot{Choice: s.Candidates[rng.IntN(len(s.Candidates))].ID}
		}
		return roundtable.Cast{Actor: id, Key: key, Ballot: b, Usage: usage}
	}
	sc := s.Scale()
	values := make([]float64, max(1, len(sc.Items)))
	for i := range values {
		values[i] = sc.Min + float64(rng.IntN(int(sc.Max-sc.Min)+1))
	}
	return roundtable.Report{Actor: id, Key: key, Values: values, Reason: "my reason " + id, Usage: usage}
}

// viewChecker compares StateFor with the fold of the visible log.
type viewChecker struct {
	t     *testing.T
	tb    *roundtable.Table
	store roundtable.Store
	kept  map[*roundtable.State]string // every state StateFor gave, as it was then
}

func (c *viewChecker) check() {
	c.t.Helper()
	ctx := context.Background()
	evs, err := c.store.Load(ctx, c.tb.ID())
	must(c.t, err)
	viewers := []roundtable.Viewer{{}, {Participant: "stranger"}, {Organiser: true}, {Researcher: true, Organiser: true},
		{Participant: "p1"}, {Participant: "p2"}, {Participant: "a1"}, {Participant: "p3", Organiser: true, Researcher: true}}
	for _, v := range viewers {
		got, err := c.tb.StateFor(ctx, v)
		must(c.t, err)
		want, err := roundtable.Replay(roundtable.Visible(evs, v))
		must(c.t, err)
		if g, w := comparable(got, v, false, nil), comparable(want, v, true, got.Latest); g != w {
			c.t.Fatalf("after event %d, %+v sees\n%s\nwant (the fold of the visible log)\n%s", len(evs), v, g, w)
		}
		if len(got.Keys) != 0 || got.Config.Secret.Key != "" {
			c.t.Fatalf("%+v sees the moderator's keys or the pseudonym key", v)
		}
		c.checkUsage(got, v)
		c.kept[got] = encodeState(c.t, got)
	}
}

// unchanged checks that every state StateFor gave is as it was then,
// although the table went on (they share the ended rounds).
func (c *viewChecker) unchanged() {
	c.t.Helper()
	for s, was := range c.kept {
		if now := encodeState(c.t, s); now != was {
			c.t.Fatalf("a state StateFor gave changed afterwards:\nwas %s\nnow %s", was, now)
		}
	}
}

// checkUsage: a round's usage shows once it has ended; the current
// round's is the viewer's own.
func (c *viewChecker) checkUsage(got *roundtable.State, v roundtable.Viewer) {
	c.t.Helper()
	full := c.tb.Snapshot()
	for i, r := range got.Rounds {
		open := r.Round == full.Round && full.Status != roundtable.StatusEnded
		for id := range r.Usage {
			if open && id != v.Participant {
				c.t.Fatalf("%+v sees %s's usage of the open round %d", v, id, r.Round)
			}
		}
		if !open && i < len(full.Rounds) && len(r.Usage) != len(full.Rounds[i].Usage) && full.Archived == 0 {
			c.t.Fatalf("%+v sees the usage of %d participants in ended round %d, want %d", v, len(r.Usage), r.Round, len(full.Rounds[i].Usage))
		}
	}
}

// comparable encodes s for comparison, leaving out what StateFor does not
// hold: the moderator's keys and last speaker, usage, the pseudonym key;
// with filter, s's latest proposals are only those of only's
// participants and v's own (StateFor leaves out those it cannot tell).
func comparable(s *roundtable.State, v roundtable.Viewer, filter bool, only map[string]roundtable.Proposal) string {
	c := *s
	c.Keys, c.Past, c.Config.Secret.Key = nil, nil, ""
	c.Rounds = slices.Clone(s.Rounds)
	for i := range c.Rounds {
		c.Rounds[i].Usage = nil
	}
	if filter {
		c.Latest = map[string]roundtable.Proposal{}
		for id, p := range s.Latest {
			if _, ok := only[id]; ok || id == v.Participant {
				c.Latest[id] = p
			}
		}
	}
	b, _ := json.Marshal(c)
	return string(b)
}

func encodeState(t *testing.T, s *roundtable.State) string {
	t.Helper()
	b, err := json.Marshal(s)
	must(t, err)
	return string(b)
}
