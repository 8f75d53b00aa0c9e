package web

import (
	"strings"
	"testing"
)

func TestMarkdownRendersTheSubset(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"bold", "**Round 1**: go", "<strong>Round 1</strong>: go"},
		{"italic", "an _idea_ here", "an <em>idea</em> here"},
		{"snake case stays", "a_b_c", "a_b_c"},
		{"code keeps markup", "`**x**`", "<code>**x**</code>"},
		{"unclosed backtick", "a `b", "a `b"},
		{"list", "Candidates:\n- **A**: one\n- B", "Candidates:<ul><li><strong>A</strong>: one</li><li>B</li></ul>"},
		{"line breaks", "one\ntwo", "one<br>two"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := string(renderMarkdown(c.in)); got != c.want {
				t.Errorf("renderMarkdown(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestMarkdownEscapesEverythingUsersWrite(t *testing.T) {
	hostile := []string{
		`<script>alert(1)</script>`,
		`**<img src=x onerror=alert(1)>**`,
		"`</code><script>x</script>`",
		`_<a href="javascript:alert(1)">x</a>_`,
		"- <iframe src=//evil>",
		`"onmouseover="alert(1)`,
	}
	for _, in := range hostile {
		out := string(renderMarkdown(in))
		for _, bad := range []string{"<script", "<img", "<a ", "<iframe", `"`} {
			if strings.Contains(out, bad) {
				t.Errorf("renderMarkdown(%q) = %q: contains %q", in, out, bad)
			}
		}
	}
}

func FuzzMarkdownAddsOnlyItsOwnTags(f *testing.F) {
	f.Add("**a** _b_ `c`\n- d")
	f.Add("<b>x</b>")
	f.Fuzz(func(t *testing.T, in string) {
		out := string(renderMarkdown(in))
		for _, tag := range []string{"strong", "em", "code", "ul", "li", "br"} {
			out = strings.ReplaceAll(out, "<"+tag+">", "")
			out = strings.ReplaceAll(out, "</"+tag+">", "")
		}
		if strings.ContainsAny(out, "<>\"") {
			t.Errorf("renderMarkdown(%q) leaves markup: %q", in, out)
		}
	})
}
