package bot

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/questionnaire"
)

// The end post says why a table ended, in words, and a table that never
// votes is not said to have decided nothing.
func TestRenderEndSaysWhyInWords(t *testing.T) {
	pr := panel.Preset(protocol.Settings{Items: []string{"Ann"}})
	chat := chatroom.Preset(protocol.Settings{Question: "Soup?"})
	for _, c := range []struct {
		s    roundtable.State
		want string
	}{
		{roundtable.State{EndReason: roundtable.EndRounds}, "**The table has ended after the last round.** Nothing was decided."},
		{roundtable.State{EndReason: roundtable.EndConvergence, Config: roundtable.Config{Protocol: chat}}, "**The table has ended because opinions stopped moving.**"},
		{roundtable.State{EndReason: roundtable.EndConvergence, Config: roundtable.Config{Protocol: pr}},
			"**The panel has ended because opinions stopped moving.**\nNobody gave a view of the items, so there is no ranking."},
		{roundtable.State{EndReason: roundtable.EndAgreement, Output: &roundtable.Candidate{Proposal: roundtable.Proposal{Text: "Soup"}}},
			"**The table has ended because everyone agreed.** Decision: "},
	} {
		if got := renderEnd(&c.s); !strings.HasPrefix(got, c.want) || (c.s.Config.Protocol != nil && got != c.want) {
			t.Errorf("renderEnd(%s) = %q; want %q", c.s.EndReason, got, c.want)
		}
	}
}

// The intro names a reveal mode only where there are messages to reveal:
// a questionnaire has none, a chatroom has.
func TestRenderIntroNamesAModeOnlyWithMessages(t *testing.T) {
	quiz := roundtable.State{Config: roundtable.Config{Rounds: 1, Mode: roundtable.Sealed, Protocol: questionnaire.Preset(protocol.Settings{})}}
	if got := renderIntro(&quiz, "Tell us."); strings.Contains(got, "Mode:") || strings.Contains(got, "message phase") {
		t.Errorf("questionnaire intro = %q; want no reveal mode", got)
	}
	chat := roundtable.State{Config: roundtable.Config{Rounds: 1, Mode: roundtable.Sealed, Protocol: chatroom.Preset(protocol.Settings{Question: "Soup?"})}}
	if got := renderIntro(&chat, "Talk."); !strings.Contains(got, "Mode: sealed") {
		t.Errorf("chatroom intro = %q; want its reveal mode", got)
	}
}

// Once an economy sized by its seats has started with every seat taken,
// its intro no longer invites anyone to join, and offers no Join button.
func TestRenderIntroOfAFullEconomyOffersNoSeat(t *testing.T) {
	s := roundtable.State{Status: roundtable.StatusRunning, Config: roundtable.Config{Rounds: 1,
		Task: roundtable.TaskSpec{Kind: "exchange", Params: map[string]string{roundtable.ParamSeats: "2"}}},
		Participants: []roundtable.Participant{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Bob"}}}
	if got := renderIntro(&s, "Trade."); strings.Contains(got, "Press **Join**") || !strings.Contains(got, "Every seat is taken.") {
		t.Errorf("full economy intro = %q", got)
	}
	for _, c := range introControls(&s) {
		if c.Label == "Join" {
			t.Error("a full economy's intro offers Join")
		}
	}
	s.Participants = s.Participants[:1]
	if got := renderIntro(&s, "Trade."); !strings.Contains(got, "Press **Join**") {
		t.Errorf("an economy with a free seat: %q; want it to invite a join", got)
	}
}
