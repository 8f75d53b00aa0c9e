package agent

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
)

// A live chatroom's agent with a stance is given the paper's persona,
// composed from the table's statement; its own background stays after
// it. A seat made for the paper keeps its persona as it is, and an agent
// with no stance its plain one.
func TestChatroomPersonaIsComposedForLiveAgents(t *testing.T) {
	v := roundtable.View{Protocol: "chatroom", Briefing: &roundtable.Briefing{Persona: roundtable.PersonaStance}, Scale: roundtable.StanceScale("Cities should ban cars from their centres."),
		Self: roundtable.Participant{ID: "ada", Name: "Ada", Stance: "slightly disagree", Background: "A cyclist from Lyon."}}
	got := chatroomPersona(v)
	for _, want := range []string{"Your name is Ada.", `You slightly agree with the statement "It is not the case that cities should ban cars from their centres."`,
		"Example of what you might say:", "\nBackground: A cyclist from Lyon."} {
		if !strings.Contains(got, want) {
			t.Errorf("composed persona lacks %q:\n%s", want, got)
		}
	}
	if sys := systemPrompt(v); !strings.Contains(sys, got) {
		t.Errorf("the system prompt does not state the composed persona:\n%s", sys)
	}
	made := opinion.ChatPersona{Name: "Bo", Statement: "S", Complement: "C", Level: -2}.Text()
	v.Self = roundtable.Participant{ID: "bo", Name: "Bo", Stance: "-2", Background: made}
	if got := chatroomPersona(v); strings.Count(got, "Your name is Bo.") != 1 || !strings.Contains(got, `"C."`) {
		t.Errorf("a seat's own persona was rewritten:\n%s", got)
	}
	v.Self = roundtable.Participant{ID: "cy", Name: "Cy", Background: "A moderator."}
	if got := chatroomPersona(v); got != "Name: Cy\nBackground: A moderator." {
		t.Errorf("an agent with no stance: %q", got)
	}
}
