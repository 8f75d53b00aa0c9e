package opinion

import (
	"strings"
	"testing"
)

// A chatroom persona states its opinion as agreement with the statement
// above neutral and with the complement below it, never as disagreement.
func TestChatPersonaAgreesWithStatementOrComplement(t *testing.T) {
	p := ChatPersona{Name: "Anna", Setting: "healthcare", Statement: "Government should ensure that everyone has healthcare",
		Complement: "Healthcare is each person's own responsibility"}
	cases := []struct {
		level float64
		want  []string
	}{
		{2, []string{`You strongly agree with the statement "Government should ensure that everyone has healthcare."`, "convinced", `"I'm sure of it: government should ensure`}},
		{1, []string{`You slightly agree with the statement "Government should ensure`, "lean towards it", `"I think government should ensure`}},
		{0, []string{"You are neutral on whether government should ensure", "both sides"}},
		{-1, []string{`You slightly agree with the statement "Healthcare is each person's own responsibility."`, `"I think healthcare is each person's own responsibility`}},
		{-2, []string{`You strongly agree with the statement "Healthcare is each person's own responsibility."`, "convinced"}},
	}
	for _, c := range cases {
		p.Level = c.level
		text := p.Text()
		if !strings.HasPrefix(text, "Your name is Anna. You are taking part in an online chat about healthcare.") {
			t.Errorf("level %g: no name and setting first:\n%s", c.level, text)
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("level %g: missing %q in\n%s", c.level, w, text)
			}
		}
		if strings.Contains(text, "disagree") {
			t.Errorf("level %g: states disagreement:\n%s", c.level, text)
		}
	}
}

func TestChatPersonaOverridesAndDerivedComplement(t *testing.T) {
	p := ChatPersona{Name: "Bo", Statement: "Gun laws should be stricter.", Level: -2, Elaboration: "Owning a gun is a right.", Example: "Leave my rifle alone!"}
	text := p.Text()
	for _, w := range []string{`about the statement "Gun laws should be stricter."`, `"It is not the case that gun laws should be stricter."`,
		"Owning a gun is a right.", `Example of what you might say: "Leave my rifle alone!"`} {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in\n%s", w, text)
		}
	}
}
