package bot

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// plannedStore is a memory store whose table's events go to a planner
// that records the marks of its intents.
func plannedStore(done func(string) bool) (*observed, *[]string) {
	var marks []string
	plan := &planner{table: "t1", channel: "c1", brief: func(*roundtable.State) string { return "brief" },
		emit: func(in intent) { marks = append(marks, in.Mark) }, done: done}
	return &observed{Store: roundtabletest.NewMemStore(), plan: plan, opened: true}, &marks
}

func TestPlannerDerivesPostsFromEvents(t *testing.T) {
	obs, marks := plannedStore(func(string) bool { return false })
	ctx := context.Background()
	if _, err := roundtabletest.PlayTable(ctx, obs, roundtabletest.NewClock(time.Unix(1e9, 0)), "t1", 1); err != nil {
		t.Fatal(err)
	}
	want := []string{"intro", "intro#seats/2", "r1/message/open", "r1/message/open#closed", // the join lists the new seat
		"r1/msg/4", "r1/msg/5", "r1/msg/6", "r1/msg/7", // sealed: revealed at the close
		"r1/proposal/open", "r1/proposal/open#closed", "r1/vote/open", "r1/vote/open#closed",
		"r1/result", "end", "intro#end"}
	if !slices.Equal(*marks, want) {
		t.Errorf("intents\n%q\nwant\n%q", *marks, want)
	}
}

func TestPlannerSkipsWhatWasDelivered(t *testing.T) {
	delivered := map[string]bool{"intro": true, "r1/message/open": true}
	obs, marks := plannedStore(func(m string) bool { return delivered[m] })
	ctx := context.Background()
	if _, err := roundtabletest.PlayTable(ctx, obs, roundtabletest.NewClock(time.Unix(1e9, 0)), "t1", 1); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(*marks, "intro") || slices.Contains(*marks, "r1/message/open") || !slices.Contains(*marks, "r1/message/open#closed") {
		t.Errorf("intents %q: want the delivered posts left out, their edits kept", *marks)
	}
}

func TestPlannerLiveModePostsOnlyWhatTheChannelDoesNotShow(t *testing.T) {
	obs, marks := plannedStore(func(string) bool { return false })
	ctx := context.Background()
	clock := roundtabletest.NewClock(time.Unix(1e9, 0))
	cfg := roundtabletest.SampleConfig(1)
	cfg.Mode = roundtable.Live
	tbl, err := roundtable.Create(ctx, obs, clock, roundtabletest.SampleTask(), "t1", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	says := []roundtable.Say{
		{Actor: "alice", Key: keyTypedMessage + "e1", Text: "typed in the thread"},
		{Actor: "bot-1", Key: "agent:1", Text: "an agent speaks"},
	}
	for _, s := range says {
		if err := tbl.Do(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"intro", "r1/message/open", "r1/msg/4"}
	if !slices.Equal(*marks, want) {
		t.Errorf("intents %q, want %q (the typed message is in the channel already)", *marks, want)
	}
}
