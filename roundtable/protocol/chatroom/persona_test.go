package chatroom_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

func TestPersonasKeepTheirStance(t *testing.T) {
	stances := []string{"strongly agree", "slightly agree", "neutral", "strongly disagree"}
	s := roundtabletest.PlayStances(t, chatroom.Preset(protocol.Settings{Question: "taxes should rise"}), 8, stances, chatroom.Persona{})
	last := s.Rounds[len(s.Rounds)-1]
	private := 0
	for _, m := range last.Messages {
		if m.Private {
			private++
		}
	}
	if private != 3 {
		t.Errorf("%d private messages after the last message, want 3 (all but the last speaker)", private)
	}
	if len(last.Surveys) != 4 {
		t.Fatalf("%d self-reports", len(last.Surveys))
	}
	for _, a := range last.Surveys {
		want, _ := opinion.ParseStance(stances[s.Index(a.By)])
		if a.Values[0] != want {
			t.Errorf("%s reports %v, assigned %v", a.By, a.Values[0], want)
		}
	}
	public := 0
	for _, r := range s.Rounds {
		for _, m := range r.Messages {
			if !m.Private {
				public++
			}
		}
	}
	if public != 8 {
		t.Errorf("%d public messages in 8 rounds", public)
	}
}
