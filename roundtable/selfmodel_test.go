package roundtable_test

import (
	"context"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
)

// A restated mental model is recorded with its message, replays, and is
// its author's alone: other participants' views and copies of the log
// drop it until a researcher exports the ended table.
func TestSelfModelIsRecordedAndPrivateToItsAuthor(t *testing.T) {
	ctx := context.Background()
	pr := panel.Preset(protocol.Settings{Items: []string{"Ann"}, Tolerance: 1e-3})
	tb, st := protocolTable(t, pr, 1, 2)
	model := &roundtable.SelfModel{Description: "A careful CFO.", Priorities: "Cost control.", Criteria: []string{"budget discipline"}, Source: "test"}
	if err := tb.Do(ctx, roundtable.Say{Actor: "p1", Text: "Ann is fine.", Self: &roundtable.SelfModel{Description: "x"}}); roundtable.ErrorCode(err) != roundtable.Invalid {
		t.Fatalf("a model without priorities: %v, want invalid", err)
	}
	must(t, tb.Do(ctx, roundtable.Say{Actor: "p1", Text: "Ann is fine.", Self: model}))
	closePhase(t, tb) // the judges speak in turn
	must(t, tb.Do(ctx, roundtable.Say{Actor: "p2", Text: "Ann is weak."}))
	closePhase(t, tb)
	own, err := tb.View(t.Context(), "p1")
	must(t, err)
	other, err := tb.View(t.Context(), "p2")
	must(t, err)
	if m := selfOf(own.Current.Messages, "p1"); m == nil || m.Criteria[0] != "budget discipline" {
		t.Errorf("p1's own view: model %+v", m)
	}
	if m := selfOf(other.Current.Messages, "p1"); m != nil {
		t.Errorf("p2 sees p1's model %+v", m)
	}
	events, err := st.load(ctx, "t1")
	must(t, err)
	for _, e := range roundtable.Visible(events, roundtable.Viewer{Participant: "p2"}) {
		if d, ok := e.Data.(roundtable.MessagePosted); ok && d.Self != nil {
			t.Errorf("p2's copy of the log holds p1's model")
		}
	}
	s, err := roundtable.Replay(events)
	must(t, err)
	if m := selfOf(s.Rounds[0].Messages, "p1"); m == nil || m.Criteria[0] != model.Criteria[0] || m.Source != "test" {
		t.Errorf("replayed model %+v", m)
	}
}

func selfOf(ms []roundtable.Message, id string) *roundtable.SelfModel {
	for _, m := range ms {
		if m.From == id {
			return m.Self
		}
	}
	return nil
}
