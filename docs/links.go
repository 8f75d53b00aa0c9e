package docs

import (
	"regexp"
	"strings"
	"unicode"
)

var (
	anchorRE  = regexp.MustCompile(`<a id="([^"]+)"></a>`)
	headingRE = regexp.MustCompile(`^#{1,6}\s+(.+?)\s*#*\s*$`)
	linkRE    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
)

// Anchors returns the anchors a Markdown page defines: every explicit
// <a id="..."></a>, and every heading's slug as GitHub makes it (lower
// case, punctuation dropped, spaces as hyphens). Code blocks are left out.
func Anchors(md []byte) map[string]bool {
	out := map[string]bool{}
	for _, line := range prose(md) {
		for _, m := range anchorRE.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		if m := headingRE.FindStringSubmatch(line); m != nil {
			out[Slug(m[1])] = true
		}
	}
	return out
}

// Slug is a heading's anchor as GitHub makes it.
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Links returns the targets of a page's Markdown links outside code
// blocks, in order: "cli.md#annotate", "#tables", "https://...".
func Links(md []byte) []string {
	var out []string
	for _, line := range prose(md) {
		for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// prose returns the lines of a page that are not inside a fenced code
// block.
func prose(md []byte) []string {
	var out []string
	fence := ""
	for _, line := range strings.Split(string(md), "\n") {
		switch m := fenceRE.FindStringSubmatch(line); {
		case fence != "":
			if closes(line, fence) {
				fence = ""
			}
		case m != nil:
			fence = m[2]
		default:
			out = append(out, line)
		}
	}
	return out
}
