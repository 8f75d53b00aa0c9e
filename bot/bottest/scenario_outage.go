package bottest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// testOutage makes the platform fail while a table runs to its end; once
// it is back, every post the log implies is in the thread exactly once.
func testOutage(t *testing.T, e *env) {
	o, ok := e.h.(Outager)
	if !ok {
		t.Skip("the harness cannot make its platform fail")
	}
	e.start(map[string]string{"topic": "Outage", "rounds": "2"})
	o.SetOutage(true)
	e.throughOutage(o, "Outage", 2)
}

// throughOutage runs the table of 2 rounds in the thread to its end while
// the outage lasts, ends it after at least failures failed requests, and
// checks that every post the log implies then shows once.
func (e *env) throughOutage(o Outager, topic string, failures int) {
	e.t.Helper()
	for i := 0; count(e.events(), "table_ended") == 0; i++ {
		if i > 20 {
			e.t.Fatal("the table does not end")
		}
		e.clock.Advance(phaseTime)
	}
	e.waitFor("failed requests", func() bool { return o.Failures() >= failures })
	o.SetOutage(false)
	var missing, repeated []string
	e.waitFor("every implied post", func() bool {
		missing, repeated = CheckPosts(e.events(), topic, 2, e.h.Posts(e.thread))
		return len(missing) == 0
	})
	if len(repeated) > 0 {
		e.t.Errorf("posts shown more than once:\n%s", strings.Join(repeated, "\n"))
	}
	var open []string
	e.waitFor("every phase prompt closed", func() bool {
		open = openPrompts(e.h.Posts(e.thread))
		return len(open) == 0
	})
}

// openPrompts lists the phase prompts of posts not edited to their closed
// form (which a table that ended must not show).
func openPrompts(posts []Post) []string {
	var out []string
	for _, p := range posts {
		if strings.HasPrefix(p.Text, "**Round ") && strings.Contains(p.Text, " of ") && strings.Contains(p.Text, " phase**") {
			out = append(out, p.Text)
		}
	}
	return out
}

// CheckPosts compares the posts of a table's thread with the posts its
// log implies (ImpliedPosts), by their texts: missing lists those not
// shown, repeated those shown more than once. Agents' messages are
// counted (their texts may repeat); topic and rounds are the table's.
func CheckPosts(evs []roundtable.Event, topic string, rounds int, posts []Post) (missing, repeated []string) {
	ms, err := impliedMatchers(evs, topic, rounds)
	if err != nil {
		return []string{err.Error()}, nil
	}
	for _, m := range ms {
		switch n := m.count(posts); {
		case n < m.want:
			missing = append(missing, fmt.Sprintf("%s: %d posts, want %d", m.what, n, m.want))
		case n > m.want:
			repeated = append(repeated, fmt.Sprintf("%s: %d posts, want %d", m.what, n, m.want))
		}
	}
	return missing, repeated
}

// matcher counts the posts of the thread that show one implied post.
type matcher struct {
	what  string
	want  int
	match func(p Post) bool
}

func (m matcher) count(posts []Post) int {
	n := 0
	for _, p := range posts {
		if m.match(p) {
			n++
		}
	}
	return n
}

// impliedMatchers turns the log's implied posts into matchers: each bot
// post once, and as many agent messages as were revealed.
func impliedMatchers(evs []roundtable.Event, topic string, rounds int) ([]matcher, error) {
	keys, err := ImpliedPosts(evs)
	if err != nil {
		return nil, err
	}
	st, err := roundtable.Replay(evs)
	if err != nil {
		return nil, err
	}
	agents := matcher{what: "agent messages", match: isAgentPost}
	var out []matcher
	for _, k := range keys {
		var round int
		var phase string
		switch {
		case k == "intro":
			out = append(out, prefixMatcher("**"+topic+"**"))
		case k == "end":
			out = append(out, prefixMatcher("**The table has ended"))
		case strings.HasSuffix(k, "/result"):
			_, _ = fmt.Sscanf(k, "r%d/result", &round)
			out = append(out, prefixMatcher(fmt.Sprintf("**Round %d result**", round)))
		case strings.HasSuffix(k, "/open"):
			_, _ = fmt.Sscanf(strings.ReplaceAll(k, "/", " "), "r%d %s open", &round, &phase)
			open, closed := fmt.Sprintf("**Round %d of %d: %s phase**", round, rounds, phase), fmt.Sprintf("**Round %d: %s phase** (closed)", round, phase)
			out = append(out, matcher{what: k, want: 1, match: func(p Post) bool {
				return strings.HasPrefix(p.Text, open) || strings.HasPrefix(p.Text, closed)
			}})
		case strings.Contains(k, "/msg/"):
			var seq uint64
			_, _ = fmt.Sscanf(k[strings.Index(k, "/msg/")+len("/msg/"):], "%d", &seq)
			if m := messageAt(st, seq); m.kind == roundtable.Bot {
				agents.want++
			} else {
				out = append(out, prefixMatcher("**"+m.name+"**: "+m.text))
			}
		}
	}
	return append(out, agents), nil
}

func prefixMatcher(prefix string) matcher {
	return matcher{what: prefix, want: 1, match: func(p Post) bool { return strings.HasPrefix(p.Text, prefix) }}
}

type shownMessage struct {
	kind       roundtable.Kind
	name, text string
}

// messageAt finds the message recorded at seq and its author.
func messageAt(st *roundtable.State, seq uint64) shownMessage {
	for _, r := range st.Rounds {
		for _, m := range r.Messages {
			if m.Seq == seq {
				p, _ := st.Participant(m.From)
				return shownMessage{kind: p.Kind, name: p.Name, text: m.Text}
			}
		}
	}
	return shownMessage{}
}

// isAgentPost tells an agent's post under its own name from the bot's
// posts and from what the suite's people typed in the thread.
func isAgentPost(p Post) bool {
	switch p.Author {
	case "bot", Alice.Name, Bob.Name, Carol.Name:
		return false
	}
	return !strings.HasPrefix(p.Text, "**")
}
