package roundtable_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

func TestViewerMay(t *testing.T) {
	proposalOpen := roundtable.Stage{Mode: roundtable.Sealed, Round: 2, Phase: roundtable.PhaseProposal}
	ended := roundtable.Stage{Mode: roundtable.Sealed, Round: 2, Phase: roundtable.PhaseVote, Ended: true}
	alice, bob, researcher := roundtable.Viewer{Participant: "alice"}, roundtable.Viewer{Participant: "bob"}, roundtable.Viewer{Researcher: true}
	msg := func(r int) roundtable.Sight {
		return roundtable.Sight{Author: "alice", Round: r, Phase: roundtable.PhaseMessage}
	}
	prop := func(r int) roundtable.Sight {
		return roundtable.Sight{Author: "alice", Round: r, Phase: roundtable.PhaseProposal}
	}
	ballot := func(r int) roundtable.Sight {
		return roundtable.Sight{Author: "alice", Round: r, Phase: roundtable.PhaseVote}
	}
	reasoning := func(r int) roundtable.Sight {
		return roundtable.Sight{Author: "alice", Round: r, Phase: roundtable.PhaseProposal, Private: true}
	}
	cases := []struct {
		name string
		v    roundtable.Viewer
		g    roundtable.Stage
		x    roundtable.Sight
		want bool
	}{
		{"an author sees her open proposal", alice, proposalOpen, prop(2), true},
		{"an author sees her reasoning", alice, proposalOpen, reasoning(2), true},
		{"others do not see an open proposal", bob, proposalOpen, prop(2), false},
		{"others see a closed message phase", bob, proposalOpen, msg(2), true},
		{"others see last round's proposals", bob, proposalOpen, prop(1), true},
		{"others do not see a later vote's ballot", bob, proposalOpen, ballot(2), false},
		{"others never see reasoning", bob, ended, reasoning(1), false},
		{"a researcher sees no reasoning while the table runs", researcher, proposalOpen, reasoning(1), false},
		{"a researcher sees no open proposal", researcher, proposalOpen, prop(2), false},
		{"a researcher sees reasoning after the end", researcher, ended, reasoning(2), true},
		{"an onlooker sees ballots after the end", roundtable.Viewer{}, ended, ballot(2), true},
		{"a live message shows at once", bob, roundtable.Stage{Mode: roundtable.Live, Round: 1, Phase: roundtable.PhaseMessage}, msg(1), true},
		{"a sealed message waits", bob, roundtable.Stage{Mode: roundtable.Sealed, Round: 1, Phase: roundtable.PhaseMessage}, msg(1), false},
		{"a message taken in turn shows at once", bob, roundtable.Stage{Mode: roundtable.Sealed, InTurn: true, Round: 1, Phase: roundtable.PhaseMessage}, msg(1), true},
		{"taking turns shows no open proposal", bob, roundtable.Stage{Mode: roundtable.Sealed, InTurn: true, Round: 2, Phase: roundtable.PhaseProposal}, prop(2), false},
		{"taking turns shows no reasoning", bob, roundtable.Stage{Mode: roundtable.Sealed, InTurn: true, Round: 1, Phase: roundtable.PhaseMessage},
			roundtable.Sight{Author: "alice", Round: 1, Phase: roundtable.PhaseMessage, Private: true}, false},
		{"taking turns shows no private message", bob, roundtable.Stage{Mode: roundtable.Sealed, InTurn: true, Round: 1, Phase: roundtable.PhasePrivate},
			roundtable.Sight{Author: "alice", Round: 1, Phase: roundtable.PhasePrivate, Private: true}, false},
		{"a closed phase shows before the next opens", bob, roundtable.Stage{Round: 1, Phase: roundtable.PhaseVote, Closed: true}, ballot(1), true},
		{"an empty participant ID is nobody's", roundtable.Viewer{}, proposalOpen, roundtable.Sight{Round: 2, Phase: roundtable.PhaseProposal}, false},
	}
	for _, c := range cases {
		if got := c.v.May(c.g, c.x); got != c.want {
			t.Errorf("%s: May = %v, want %v", c.name, got, c.want)
		}
	}
}

func BenchmarkReplay(b *testing.B) {
	evs := sampleLog(b, 20, "", false)
	for b.Loop() {
		if _, err := roundtable.Replay(evs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(evs)), "events")
}

func BenchmarkVisible(b *testing.B) {
	evs := sampleLog(b, 20, "", false)
	for b.Loop() {
		roundtable.Visible(evs, roundtable.Viewer{Participant: "bob"})
	}
	b.ReportMetric(float64(len(evs)), "events")
}
