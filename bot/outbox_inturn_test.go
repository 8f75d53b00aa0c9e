package bot

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// At a sealed table whose judges speak in turn, every turn is announced
// and closed under its own key, and each opinion is posted as it comes
// (the next speaker must read it), once.
func TestPlannerAnnouncesEveryTurnAndPostsOpinionsAsTheyCome(t *testing.T) {
	obs, marks := plannedStore(func(string) bool { return false })
	ctx := context.Background()
	cfg := roundtabletest.SampleConfig(1)
	cfg.Protocol = panel.Preset(protocol.Settings{Items: []string{"Ann"}, Tolerance: 1e-3})
	cfg.EarlyStop = roundtable.StopNever
	tbl, err := roundtable.Create(ctx, obs, roundtabletest.NewClock(time.Unix(1e9, 0)), roundtabletest.SampleTask(), "t1", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		var who string
		tbl.Read(func(s *roundtable.State) { who = s.Turn[0] })
		if err := tbl.Do(ctx, roundtable.Say{Actor: who, Key: "k-" + who, Text: who + " likes Ann"}); err != nil {
			t.Fatal(err)
		}
		if _, err := tbl.Close(ctx, roundtable.Position{}, roundtable.ClosedAllActed); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"intro", "r1/message/t1/open", "r1/msg/3", "r1/message/t1/open#closed",
		"r1/message/t2/open", "r1/msg/6", "r1/message/t2/open#closed", "r1/message/t3/open"}
	if !slices.Equal(*marks, want) {
		t.Errorf("intents\n%q\nwant\n%q", *marks, want)
	}
}
