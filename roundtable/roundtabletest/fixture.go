package roundtabletest

import (
	"context"
	"fmt"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// SampleTask is the task of SampleConfig.
func SampleTask() roundtable.TextTask {
	return roundtable.TextTask{Topic: "what should the town do with the empty lot?"}
}

// SampleConfig returns a small free-text table decided by plurality over
// the given number of rounds: one human (alice, seated on Discord) and two
// agents (bot-1 "Ada", bot-2 "Babbage").
func SampleConfig(rounds int) roundtable.Config {
	return roundtable.Config{
		Title:  "Empty lot",
		Task:   roundtable.TaskSpec{Kind: "text", Topic: SampleTask().Topic},
		Rule:   vote.Plurality,
		Rounds: rounds,
		Seed:   7,
		Participants: []roundtable.Participant{
			{ID: "alice", Name: "Alice Smith", Kind: roundtable.Human, Platform: "discord:1001"},
			{ID: "bot-1", Name: "Ada", Kind: roundtable.Bot, Agent: "utility", Stance: "builder"},
			{ID: "bot-2", Name: "Babbage", Kind: roundtable.Bot, Agent: "utility"},
		},
	}
}

// SampleJoiner is the second human of a sample table; PlayTable seats him
// after the table is created.
func SampleJoiner() roundtable.Participant {
	return roundtable.Participant{ID: "bob", Name: "Bob Jones", Kind: roundtable.Human, Platform: "slack:U2002"}
}

// PlayTable creates table id in store with SampleConfig(rounds), seats
// SampleJoiner, starts the table and plays every round with PlayRound until
// it ends. The clock moves a minute per step.
func PlayTable(ctx context.Context, store roundtable.Store, clock *Clock, id string, rounds int) (*roundtable.Table, error) {
	tbl, err := StartTable(ctx, store, clock, id, rounds)
	if err != nil {
		return nil, err
	}
	for i := 0; i < rounds; i++ {
		if err := PlayRound(ctx, tbl, clock); err != nil {
			return nil, err
		}
	}
	return tbl, nil
}

// StartTable creates table id in store with SampleConfig(rounds), seats
// SampleJoiner a minute later and opens round 1, ready for PlayRound.
func StartTable(ctx context.Context, store roundtable.Store, clock *Clock, id string, rounds int) (*roundtable.Table, error) {
	tbl, err := roundtable.Create(ctx, store, clock, SampleTask(), id, SampleConfig(rounds))
	if err != nil {
		return nil, err
	}
	clock.Advance(time.Minute)
	if err := tbl.Join(ctx, SampleJoiner(), "slack:join:"+id); err != nil {
		return nil, fmt.Errorf("join: %w", err)
	}
	if err := tbl.Start(ctx); err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	return tbl, nil
}

// PlayRound plays the open round of a PlayTable table through its three
// phases: everyone speaks (the humans with platform message keys and
// recipients), alice and bob propose "Plant trees" (merged into candidate
// A), Ada proposes "Build a park", Babbage skips; bob's first ballot is
// rejected, and A wins three votes to one.
func PlayRound(ctx context.Context, tbl *roundtable.Table, clock *Clock) error {
	var round int
	tbl.Read(func(s *roundtable.State) { round = s.Round })
	key := func(p string) string { return fmt.Sprintf("%s:%s:r%d", p, tbl.ID(), round) }
	steps := []struct {
		a      roundtable.Action
		reject bool
	}{
		{a: roundtable.Say{Actor: "alice", Key: key("discord:msg"), To: []string{"bot-1", "bob"}, Text: "Ada, Bob Jones says trees. Alice Smith agrees."}},
		{a: roundtable.Say{Actor: "bob", Key: key("slack:msg"), To: []string{"alice"}, Text: "=1+1 trees, Alice"}},
		{a: roundtable.Say{Actor: "bot-1", Key: key("bot-1:message"), Text: "A park serves more people."}},
		{a: roundtable.Say{Actor: "bot-2", Text: "Trees are cheaper."}},
		{a: nil},
		{a: roundtable.Propose{Actor: "alice", Key: key("discord:modal"), Proposal: roundtable.Proposal{Text: "Plant trees"}}},
		{a: roundtable.Propose{Actor: "bob", Proposal: roundtable.Proposal{Text: " plant  trees "}}},
		{a: roundtable.Propose{Actor: "bot-1", Proposal: roundtable.Proposal{Text: "Build a park"}, Reasoning: "parks score higher",
			Usage: &roundtable.Usage{Calls: 1, PromptTokens: 120, CompletionTokens: 30}}},
		{a: roundtable.Skip{Actor: "bot-2", Reasoning: "nothing to add"}},
		{a: nil},
		{a: roundtable.Cast{Actor: "alice", Key: key("discord:select"), Ballot: vote.Ballot{Choice: "A"}}},
		{a: roundtable.Cast{Actor: "bob", Key: key("slack:block"), Ballot: vote.Ballot{Choice: "Z"}}, reject: true},
		{a: roundtable.Cast{Actor: "bob", Ballot: vote.Ballot{Choice: "A"}}},
		{a: roundtable.Cast{Actor: "bot-1", Ballot: vote.Ballot{Choice: "B"}}},
		{a: roundtable.Cast{Actor: "bot-2", Ballot: vote.Ballot{Choice: "A"}}},
		{a: nil},
	}
	for i, st := range steps {
		clock.Advance(time.Minute)
		if err := step(ctx, tbl, st.a, st.reject); err != nil {
			return fmt.Errorf("table %s round %d step %d: %w", tbl.ID(), round, i, err)
		}
	}
	return nil
}

// step takes one action, or closes the open phase when a is nil.
func step(ctx context.Context, tbl *roundtable.Table, a roundtable.Action, reject bool) error {
	if a == nil {
		_, err := tbl.Close(ctx, roundtable.Position{}, roundtable.ClosedAllActed)
		return err
	}
	err := tbl.Do(ctx, a)
	if reject && roundtable.ErrorCode(err) == roundtable.Invalid {
		return nil
	}
	if reject && err == nil {
		return fmt.Errorf("ballot %+v was not rejected", a)
	}
	return err
}
