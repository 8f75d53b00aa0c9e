package docs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseReadsBlocksAndDirectives(t *testing.T) {
	md := strings.Join([]string{
		"# Title",
		"",
		"```sh",
		"roundtable sim --runs 2",
		"```",
		"",
		"<!-- docs-test: skip: needs DISCORD_TOKEN -->",
		"",
		"```bash",
		"DISCORD_TOKEN=... roundtable serve",
		"```",
		"<!-- docs-test: serve with --web-addr 127.0.0.1:0 -->",
		"```sh",
		"roundtable serve",
		"```",
		"```toml",
		"[bot]",
		"```",
		"1. A step:",
		"",
		"   ```console",
		"   $ roundtable tables",
		"   ID STATUS",
		"   ```",
		"<!-- docs-test: repo -->",
		"````shell",
		"go install ./cmd/roundtable",
		"```",
		"````",
	}, "\n")
	got, err := Parse("x.md", []byte(md))
	if err != nil {
		t.Fatal(err)
	}
	want := []Block{
		{File: "x.md", Line: 3, Lang: "sh", Text: "roundtable sim --runs 2\n", Mode: ModeRun},
		{File: "x.md", Line: 9, Lang: "bash", Text: "DISCORD_TOKEN=... roundtable serve\n", Mode: ModeSkip, Reason: "needs DISCORD_TOKEN"},
		{File: "x.md", Line: 13, Lang: "sh", Text: "roundtable serve\n", Mode: ModeServe, Args: "--web-addr 127.0.0.1:0"},
		{File: "x.md", Line: 16, Lang: "toml", Text: "[bot]\n", Mode: ModeRun},
		{File: "x.md", Line: 21, Lang: "console", Text: "$ roundtable tables\nID STATUS\n", Mode: ModeRun},
		{File: "x.md", Line: 26, Lang: "shell", Text: "go install ./cmd/roundtable\n```\n", Mode: ModeRepo},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Parse:\n got %+v\nwant %+v", got, want)
	}
	if s := got[2].Script(); s != "roundtable serve --web-addr 127.0.0.1:0" {
		t.Errorf("served script = %q", s)
	}
	if s := got[4].Script(); s != "roundtable tables" {
		t.Errorf("console script = %q, want the $ lines only", s)
	}
	if got[3].Shell() || !got[4].Shell() {
		t.Errorf("Shell: toml %v, console %v", got[3].Shell(), got[4].Shell())
	}
}

func TestParseRefusesBadMarkdownNamingTheLine(t *testing.T) {
	for name, c := range map[string]struct{ md, want string }{
		"unclosed":       {"text\n```sh\nls\n", "x.md:2: the code block is never closed"},
		"skip no reason": {"<!-- docs-test: skip: -->\n```sh\nls\n```\n", "x.md:2: docs-test: skip needs a reason"},
		"unknown":        {"<!-- docs-test: maybe -->\n```sh\nls\n```\n", `x.md:2: unknown docs-test directive "maybe"`},
		"not shell":      {"<!-- docs-test: skip: why -->\n```toml\na = 1\n```\n", `x.md:2: docs-test directive "skip: why" before a "toml" block`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("x.md", []byte(c.md))
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("Parse: %v, want an error starting %q", err, c.want)
			}
		})
	}
}

// A directive applies to the next block only, and text in between
// detaches it.
func TestDirectiveAppliesToTheNextBlockOnly(t *testing.T) {
	md := "<!-- docs-test: skip: later -->\nSome words.\n```sh\nls\n```\n<!-- docs-test: repo -->\n```sh\nls\n```\n```sh\nls\n```\n"
	got, err := Parse("x.md", []byte(md))
	if err != nil {
		t.Fatal(err)
	}
	modes := []Mode{got[0].Mode, got[1].Mode, got[2].Mode}
	if !slices.Equal(modes, []Mode{ModeRun, ModeRepo, ModeRun}) {
		t.Errorf("modes %v, want run, repo, run", modes)
	}
}

func TestAnchorsAndLinksSkipCode(t *testing.T) {
	md := "<a id=\"tables\"></a>\n## Tables and the `event` log\n```sh\n# not a heading [x](nowhere.md)\n```\nSee [cli](cli.md#annotate) and [here](#tables).\n"
	a := Anchors([]byte(md))
	if !a["tables"] || !a["tables-and-the-event-log"] || a["not-a-heading"] {
		t.Errorf("Anchors = %v", a)
	}
	if l := Links([]byte(md)); !slices.Equal(l, []string{"cli.md#annotate", "#tables"}) {
		t.Errorf("Links = %v", l)
	}
}

// repoRoot is the repository's root: the parent of this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository's root: %v", err)
	}
	return root
}

// pages are the documentation pages, relative to the root: README.md and
// docs/*.md.
func pages(t *testing.T, root string) []string {
	t.Helper()
	out := []string{"README.md"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		rel, _ := filepath.Rel(root, d)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}
