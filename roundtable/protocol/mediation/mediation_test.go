package mediation

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom" // a protocol that does not own drafts
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// seen is a person who ranks the candidates exactly in the order it is
// shown them, and remembers that order; silent people never rank.
type seen struct {
	mu     sync.Mutex
	shown  map[string][]roundtable.Candidate // by voter, the first vote's
	silent map[string]bool
}

func (a *seen) Act(ctx context.Context, v roundtable.View) (roundtable.Action, error) {
	switch v.Phase {
	case roundtable.PhaseVote:
		if a.silent[v.Self.ID] {
			return roundtable.Fail{Kind: "timeout", Reason: "did not rank in time"}, nil
		}
		a.mu.Lock()
		if v.Round == 1 {
			a.shown[v.Self.ID] = v.Candidates
		}
		a.mu.Unlock()
		ids := make([]string, len(v.Candidates))
		for i, c := range v.Candidates {
			ids[i] = c.ID
		}
		return roundtable.Cast{Ballot: vote.Ballot{Ranking: ids}}, nil
	}
	return Stitch{}.Act(ctx, v)
}

// play runs a mediation of people (a1..) and three model-free mediators
// to its end; people play p, and the state and the log are returned.
func play(t *testing.T, people int, rounds int, p roundtable.Agent) (*roundtable.State, []roundtable.Event) {
	t.Helper()
	ctx := context.Background()
	pr, err := protocol.Build(protocol.Settings{Protocol: Name, Drafts: 3})
	if err != nil {
		t.Fatal(err)
	}
	ps := MediatorSeats(3, KindStitch)
	agents := map[string]roundtable.Agent{}
	for _, m := range ps {
		agents[m.ID] = Stitch{}
	}
	for i := range people {
		id := fmt.Sprintf("a%d", i+1)
		ps = append(ps, roundtable.Participant{ID: id, Name: fmt.Sprintf("Person %d", i+1), Kind: roundtable.Bot, Stance: fmt.Sprint(2 - i%5)})
		agents[id] = p
	}
	store := roundtabletest.NewMemStore()
	cfg := roundtable.Config{Rule: vote.Schulze, Rounds: rounds, Seed: 11, Protocol: pr, Participants: ps,
		Task: roundtable.TaskSpec{Kind: "text", Topic: "traffic in the old centre"}}
	tb, err := roundtable.Create(ctx, store, roundtabletest.NewClock(time.Unix(0, 0)), roundtable.TextTask{Topic: cfg.Task.Topic}, "m", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&roundtable.Runner{Agents: agents}).Run(ctx, tb); err != nil {
		t.Fatal(err)
	}
	evs, err := store.Load(ctx, "m")
	if err != nil {
		t.Fatal(err)
	}
	return tb.Snapshot(), evs
}

// Each person sees the candidates in an order of their own, recorded in
// the vote's PhaseOpened; a ballot that ranks what its voter saw first
// counts for that statement.
func TestCandidateOrderIsPerPersonRecordedAndMappedBack(t *testing.T) {
	a := &seen{shown: map[string][]roundtable.Candidate{}}
	s, evs := play(t, 4, 1, a)
	var orders map[string][]string
	for _, e := range evs {
		if o, ok := e.Data.(roundtable.PhaseOpened); ok && o.Phase == roundtable.PhaseVote {
			orders = o.Orders
			break
		}
	}
	if len(orders) != 4 {
		t.Fatalf("recorded orders %v, want one per person (the mediators do not rank)", orders)
	}
	distinct := map[string]bool{}
	for _, o := range orders {
		distinct[strings.Join(o, ",")] = true
	}
	if len(distinct) < 2 {
		t.Errorf("every person saw the same order %v", orders)
	}
	r := s.Rounds[0]
	text := map[string]string{}
	for _, c := range r.Candidates {
		text[c.ID] = c.Proposal.Text
	}
	if len(a.shown) != 4 {
		t.Fatalf("%d people were shown the candidates, want 4", len(a.shown))
	}
	for id, shown := range a.shown {
		var ids []string
		for _, c := range shown {
			ids = append(ids, c.ID)
			if text[c.ID] != c.Proposal.Text {
				t.Errorf("%s was shown %s as %q, the table has %q", id, c.ID, c.Proposal.Text, text[c.ID])
			}
		}
		if !slices.Equal(ids, orders[id]) {
			t.Errorf("%s was shown %v, the log records %v", id, ids, orders[id])
		}
		i := slices.IndexFunc(r.Tally.Ballots, func(b vote.Ballot) bool { return b.Voter == id })
		if i < 0 || r.Tally.Ballots[i].Ranking[0] != orders[id][0] {
			t.Errorf("%s's ballot does not put first what it saw first (%s)", id, orders[id][0])
		}
	}
}

// A person who never ranks is left out of every ranking; the other
// three reach a group statement through a critique round.
func TestAPersonWhoNeverRanksIsLeftOut(t *testing.T) {
	a := &seen{shown: map[string][]roundtable.Candidate{}, silent: map[string]bool{"a4": true}}
	s, _ := play(t, 4, 2, a)
	if s.Decision == nil {
		t.Fatalf("no group statement: %+v", s.Rounds[len(s.Rounds)-1].Tally)
	}
	ag := Agree(s)
	if ag.Rounds != 2 || ag.LeftOut != 2 || ag.Ballots != 3 || len(ag.Endorsements) != 4 {
		t.Errorf("agreement %+v, want 2 rounds, a4 left out of both rankings, 3 ballots and 4 endorsements", ag)
	}
}

// A ranking needs ballots from max(2, ⌈n/2⌉) people: with three of four
// silent there is no winner, and the tally says why.
func TestARankingWithTooFewBallotsSaysWhy(t *testing.T) {
	a := &seen{shown: map[string][]roundtable.Candidate{}, silent: map[string]bool{"a2": true, "a3": true, "a4": true}}
	s, _ := play(t, 4, 1, a)
	tl := s.Rounds[0].Tally
	if tl.Winner != "" || !strings.Contains(tl.Reason, "quorum not met: 1 of the 2 ballots required") {
		t.Errorf("tally winner %q, reason %q", tl.Winner, tl.Reason)
	}
}

// The model-free mediator says so in its name and in the log.
func TestTheModelFreeMediatorIsLabelled(t *testing.T) {
	s, _ := play(t, 3, 1, Stitch{})
	for _, p := range s.Rounds[0].Proposals {
		if !strings.HasPrefix(p.Reasoning, StitchReasoning) {
			t.Errorf("%s's candidate is not labelled: %q", p.By, p.Reasoning)
		}
	}
	for _, m := range MediatorSeats(2, KindStitch) {
		if !strings.Contains(m.Name, "model-free") {
			t.Errorf("seat %q does not say it is model-free", m.Name)
		}
	}
}

// The number of drafts is the mediation's own setting, checked and named.
func TestDraftsSettingIsCheckedAndNamed(t *testing.T) {
	cases := []struct {
		s    protocol.Settings
		want string
	}{
		{protocol.Settings{Key: "table[0].protocol", Protocol: Name, Drafts: 1}, "table[0].drafts: 1 drafts; the mediator writes 2 to 16 candidates"},
		{protocol.Settings{Key: "--protocol", Protocol: Name, Drafts: 17}, "--drafts: 17 drafts"},
		{protocol.Settings{Key: "--protocol", Protocol: "chatroom", Drafts: 3}, "--drafts: a setting of the mediation protocol"},
	}
	for _, c := range cases {
		if _, err := protocol.Build(c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.s, err, c.want)
		}
	}
	pr, err := protocol.Build(protocol.Settings{Protocol: Name, Drafts: 5})
	if err != nil || pr.Params[ParamDrafts] != "5" || pr.Stop.Kind != roundtable.StopKept {
		t.Errorf("drafts 5: %+v, %v", pr, err)
	}
}
