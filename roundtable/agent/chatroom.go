package agent

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// DefaultContextChars is how many characters of recent chat a chatroom
// prompt holds when Options.ContextChars is 0: about 4,000 tokens at four
// characters a token, which fits the smallest context windows the paper's
// models have, with the persona and the instruction beside it.
const DefaultContextChars = 16000

// chatroomHistory is the history part of a chatroom prompt as
// Conversational bias builds it (section 3.1): the persona restated right
// before the recent history, which the paper found keeps models on their
// assigned opinion, and list memory cut to the context window: the most
// recent messages that fit in budget characters, the oldest dropped
// first. Window and reflective memory do not apply to chatrooms.
func chatroomHistory(v roundtable.View, budget int) string {
	var b strings.Builder
	b.WriteString("## Who you are (restated)\n" + chatroomPersona(v) + "\n\n## The chat so far\n")
	lines, dropped := recentLines(v, budget)
	if dropped > 0 {
		fmt.Fprintf(&b, "(%d earlier messages no longer fit in your memory.)\n", dropped)
	}
	if len(lines) == 0 && dropped == 0 {
		b.WriteString("Nothing has been said yet.\n")
	}
	for _, l := range lines {
		b.WriteString(l)
	}
	return b.String()
}

// recentLines renders the messages Self may see, oldest first, keeping
// the newest that fit in budget characters together; dropped counts the
// older ones left out.
func recentLines(v roundtable.View, budget int) (lines []string, dropped int) {
	all := chatLines(v)
	first, used := len(all), 0
	for first > 0 {
		n := utf8.RuneCountInString(all[first-1])
		if used+n > budget {
			break
		}
		used += n
		first--
	}
	return all[first:], first
}

// chatLines renders every message of the history and the current round,
// one line each.
func chatLines(v roundtable.View) []string {
	var out []string
	for _, r := range v.SoFar() {
		for _, m := range r.Messages {
			who := v.Name(m.From)
			if m.From == v.Self.ID {
				who += " (you)"
			}
			if m.Private {
				who += ", privately"
			}
			out = append(out, fmt.Sprintf("- %s: %s\n", who, oneLine(m.Text)))
		}
	}
	return out
}
