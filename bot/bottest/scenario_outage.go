package bottest

import (
	"fmt"
	"strings"
	"testing"
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
	for i := 0; count(e.events(), "table_ended") == 0; i++ {
		if i > 20 {
			t.Fatal("the table does not end")
		}
		e.clock.Advance(phaseTime)
	}
	e.waitFor("failed attempts", func() bool { return o.Failures() >= 2 })
	o.SetOutage(false)
	want := e.impliedMatchers()
	e.waitFor("every implied post", func() bool {
		for _, m := range want {
			if m.count(e) == 0 {
				return false
			}
		}
		return true
	})
	for _, m := range want {
		if n := m.count(e); n != m.want {
			t.Errorf("%s: %d posts, want %d", m.what, n, m.want)
		}
	}
}

// matcher counts the posts of the thread that show one implied post.
type matcher struct {
	what  string
	want  int
	match func(p Post) bool
}

func (m matcher) count(e *env) int {
	n := 0
	for _, p := range e.h.Posts(e.thread) {
		if m.match(p) {
			n++
		}
	}
	return n
}

// impliedMatchers turns the log's implied posts into matchers: each bot
// post once, and as many agent messages as were revealed.
func (e *env) impliedMatchers() []matcher {
	keys, err := ImpliedPosts(e.events())
	if err != nil {
		e.t.Fatal(err)
	}
	agents := matcher{what: "agent messages", match: func(p Post) bool { return p.Author == "Scribe" }}
	var out []matcher
	for _, k := range keys {
		var round int
		var phase string
		switch {
		case k == "intro":
			out = append(out, prefixMatcher("**Outage**"))
		case k == "end":
			out = append(out, prefixMatcher("**The table has ended"))
		case strings.HasSuffix(k, "/result"):
			fmt.Sscanf(k, "r%d/result", &round)
			out = append(out, prefixMatcher(fmt.Sprintf("**Round %d result**", round)))
		case strings.HasSuffix(k, "/open"):
			fmt.Sscanf(strings.ReplaceAll(k, "/", " "), "r%d %s open", &round, &phase)
			open, closed := fmt.Sprintf("**Round %d of 2: %s phase**", round, phase), fmt.Sprintf("**Round %d: %s phase** (closed)", round, phase)
			out = append(out, matcher{what: k, want: 1, match: func(p Post) bool {
				return strings.HasPrefix(p.Text, open) || strings.HasPrefix(p.Text, closed)
			}})
		case strings.Contains(k, "/msg/"):
			agents.want++
		}
	}
	return append(out, agents)
}

func prefixMatcher(prefix string) matcher {
	return matcher{what: prefix, want: 1, match: func(p Post) bool { return strings.HasPrefix(p.Text, prefix) }}
}
