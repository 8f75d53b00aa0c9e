package roundtable_test

import (
	"context"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// A private message is its author's and its addressees' (once its phase
// has closed), and the organiser's export's: other participants and
// onlookers get a withheld event, and every copy replays. Its author's
// model of self stays the author's.
func TestPrivateMessagesAreWithheldFromOthers(t *testing.T) {
	ctx := context.Background()
	pr := &roundtable.Protocol{Round: []roundtable.Step{{Phase: roundtable.PhaseMessage}, {Phase: roundtable.PhasePrivate}}}
	tb, st := newTable(t, roundtable.Config{Rounds: 2, Protocol: pr})
	must(t, tb.Start(ctx))
	closePhase(t, tb)
	must(t, tb.Do(ctx, roundtable.Say{Actor: "p1", Text: "note to self"}))
	self := &roundtable.SelfModel{Description: "d", Priorities: "p", Criteria: []string{"c"}}
	must(t, tb.Do(ctx, roundtable.Say{Actor: "p2", Text: "for p1", To: []string{"p1"}, Self: self}))
	sees := func(v roundtable.Viewer) map[string]bool {
		evs, err := st.Load(ctx, "t1")
		must(t, err)
		vis := roundtable.Visible(evs, v)
		if _, err := roundtable.Replay(vis); err != nil {
			t.Fatalf("%+v's copy does not replay: %v", v, err)
		}
		out := map[string]bool{}
		for _, e := range vis {
			if m, ok := e.Data.(roundtable.MessagePosted); ok {
				out[m.Text] = true
				if m.Self != nil && v.Participant != e.Actor && !(v.Researcher && roundtable.StageOf(evs).Ended) {
					t.Errorf("%+v sees %s's model of self", v, e.Actor)
				}
			}
		}
		return out
	}
	p1, p3, org := roundtable.Viewer{Participant: "p1"}, roundtable.Viewer{Participant: "p3"}, roundtable.Viewer{Participant: "p3", Organiser: true}
	if got := sees(p1); !got["note to self"] || got["for p1"] {
		t.Errorf("p1 while the private phase is open: %v", got)
	}
	if got := sees(org); len(got) != 0 {
		t.Errorf("the organiser's export while the private phase is open: %v", got)
	}
	closePhase(t, tb) // round 2 opens
	for name, c := range map[string]struct {
		v    roundtable.Viewer
		want int
	}{"p1 (author and addressee)": {p1, 2}, "p2": {roundtable.Viewer{Participant: "p2"}, 1}, "p3": {p3, 0}, "an onlooker": {roundtable.Viewer{}, 0}, "the organiser's export": {org, 2}} {
		if got := sees(c.v); len(got) != c.want {
			t.Errorf("%s sees %v, want %d private messages", name, got, c.want)
		}
	}
}
