package opinion

import (
	"fmt"
	"strings"
)

// ChatPersona is a chatroom participant as Conversational bias builds one
// (section 3.1): a name and the setting of the chat, an opinion stated as
// agreement with the statement or with its complement at one of the five
// levels, an elaboration of that opinion and an example of what someone
// holding it might say. Agreement with the complement, not disagreement
// with the statement, because the paper found models misread "you
// slightly disagree with ...".
type ChatPersona struct {
	Name       string
	Setting    string  // what the chat is about; "" says the statement
	Statement  string  // the statement (level 2 strongly agrees with it)
	Complement string  // its complement (level -2 strongly agrees with it); "" derives one
	Level      float64 // -2..2, rounded to the nearest level
	// Elaboration and Example override the defaults written for the level.
	Elaboration, Example string
}

// chatSetting opens the setting sentence of every ChatPersona text.
const chatSetting = "You are taking part in an online chat about "

// IsChatPersona reports whether text is (or holds) a ChatPersona's text.
func IsChatPersona(text string) bool { return strings.Contains(text, chatSetting) }

// Text is the persona as an agent's prompt states it, and as a seat's
// background records it in the log.
func (p ChatPersona) Text() string {
	setting := p.Setting
	if strings.TrimSpace(setting) == "" {
		setting = fmt.Sprintf("the statement %q", sentence(p.Statement))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Your name is %s. %s%s. Keep your messages short: one or two lines.\n", p.Name, chatSetting, setting)
	b.WriteString(p.opinion() + " " + p.elaboration() + "\n")
	fmt.Fprintf(&b, "Example of what you might say: %q", p.example())
	return b.String()
}

// opinion states the level as agreement with the statement or its
// complement; the neutral level is neutral towards the topic.
func (p ChatPersona) opinion() string {
	switch Round(p.Level) {
	case 2:
		return fmt.Sprintf("You strongly agree with the statement %q.", sentence(p.Statement))
	case 1:
		return fmt.Sprintf("You slightly agree with the statement %q.", sentence(p.Statement))
	case -1:
		return fmt.Sprintf("You slightly agree with the statement %q.", p.complement())
	case -2:
		return fmt.Sprintf("You strongly agree with the statement %q.", p.complement())
	}
	return fmt.Sprintf("You are neutral on whether %s.", clause(p.Statement))
}

// elaborations explain each level, strongest first, as in Levels.
var elaborations = map[float64]string{
	2:  "You are convinced of it, and you argue for it whenever it comes up.",
	1:  "You lean towards it on balance, though you can see some merit in the other side.",
	0:  "You see good arguments on both sides and do not take either.",
	-1: "You lean towards it on balance, though you can see some merit in the other side.",
	-2: "You are convinced of it, and you argue for it whenever it comes up.",
}

func (p ChatPersona) elaboration() string {
	if e := strings.TrimSpace(p.Elaboration); e != "" {
		return e
	}
	return elaborations[Round(p.Level)]
}

func (p ChatPersona) example() string {
	if e := strings.TrimSpace(p.Example); e != "" {
		return e
	}
	switch Round(p.Level) {
	case 2:
		return "I'm sure of it: " + clause(p.Statement) + ". Nothing anyone has said changes that."
	case 1:
		return "I think " + clause(p.Statement) + ", though I get why some people hesitate."
	case -1:
		return "I think " + clause(p.complement()) + ", though I get why some people hesitate."
	case -2:
		return "I'm sure of it: " + clause(p.complement()) + ". Nothing anyone has said changes that."
	}
	return "Both sides have a point on whether " + clause(p.Statement) + "; I haven't made up my mind."
}

// complement is the configured complement, or a plain negation of the
// statement when none is given.
func (p ChatPersona) complement() string {
	if c := strings.TrimSpace(p.Complement); c != "" {
		return sentence(c)
	}
	return "It is not the case that " + clause(p.Statement) + "."
}

// sentence trims s and ends it with a full stop if it has no end mark.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".!?") {
		return s
	}
	return s + "."
}

// clause is s as a clause inside a sentence: no end mark, and a lower-case
// first letter unless the first word looks like a name or an acronym.
func clause(s string) string {
	s = strings.TrimRight(strings.TrimSpace(s), ".!?")
	first, _, _ := strings.Cut(s, " ")
	if len(first) > 1 && first[1:] == strings.ToLower(first[1:]) && first != "I" {
		return strings.ToLower(first[:1]) + s[1:]
	}
	return s
}
