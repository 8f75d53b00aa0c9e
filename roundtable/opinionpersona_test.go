package roundtable_test

import (
	"context"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
)

// A chatroom message's persona record is checked, recorded with the
// message, replayed, and its author's alone: other participants' views
// and copies of the log drop it.
func TestOpinionPersonaIsRecordedAndPrivateToItsAuthor(t *testing.T) {
	ctx := context.Background()
	tb, st := protocolTable(t, chatroom.Preset(protocol.Settings{Question: "Taxes should rise."}), 3, 2)
	bad := &roundtable.OpinionPersona{Level: 3, Text: "You are sure."}
	_, who := turn(tb)
	if len(who) != 1 {
		t.Fatalf("%v may speak, want one", who)
	}
	speaker := who[0]
	if err := tb.Do(ctx, roundtable.Say{Actor: speaker, Text: "Taxes, yes.", Persona: bad}); roundtable.ErrorCode(err) != roundtable.Invalid {
		t.Fatalf("a persona at level 3: %v, want invalid", err)
	}
	p := &roundtable.OpinionPersona{Level: 2, Text: "You strongly agree.",
		Signal: &roundtable.OpinionSignal{Classifier: "judge", Present: true, Level: -1}}
	must(t, tb.Do(ctx, roundtable.Say{Actor: speaker, Text: "Taxes, yes.", Persona: p}))
	other := "p1"
	if speaker == other {
		other = "p2"
	}
	own, err := tb.View(ctx, speaker)
	must(t, err)
	theirs, err := tb.View(ctx, other)
	must(t, err)
	if got := roundtable.LatestPersona(own.SoFar(), speaker); got == nil || got.Next() != -1 || !got.Updated() {
		t.Errorf("the author's view: persona %+v, want one moving to -1", got)
	}
	if got := roundtable.LatestPersona(theirs.SoFar(), speaker); got != nil {
		t.Errorf("%s sees %s's persona %+v", other, speaker, got)
	}
	events, err := st.load(ctx, "t1")
	must(t, err)
	for _, e := range roundtable.Visible(events, roundtable.Viewer{Participant: other}) {
		if d, ok := e.Data.(roundtable.MessagePosted); ok && d.Persona != nil {
			t.Errorf("%s's copy of the log holds the persona", other)
		}
	}
	s, err := roundtable.Replay(events)
	must(t, err)
	if got := roundtable.LatestPersona(s.Rounds, speaker); got == nil || got.Signal == nil || got.Signal.Classifier != "judge" || got.Level != 2 {
		t.Errorf("replayed persona %+v", got)
	}
}
