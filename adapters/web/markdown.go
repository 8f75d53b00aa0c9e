package web

import (
	"html"
	"html/template"
	"regexp"
	"strings"
)

// The markdown subset of bot.Message.Text: **bold**, _italic_, `code`,
// "- " lists and line breaks. Everything else is text.
var (
	boldRE   = regexp.MustCompile(`\*\*([^*\n]+?)\*\*`)
	italicRE = regexp.MustCompile(`(^|[^\p{L}\p{N}_])_([^_\n]+?)_($|[^\p{L}\p{N}_])`)
)

// renderMarkdown turns the markdown subset into HTML. The text is escaped
// first, so whatever a user wrote stays text: the only tags in the result
// are the ones added here.
func renderMarkdown(text string) template.HTML {
	var b strings.Builder
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); {
		if isItem(lines[i]) {
			b.WriteString("<ul>")
			for ; i < len(lines) && isItem(lines[i]); i++ {
				b.WriteString("<li>" + inline(strings.TrimPrefix(strings.TrimLeft(lines[i], " "), "- ")) + "</li>")
			}
			b.WriteString("</ul>")
			continue
		}
		b.WriteString(inline(lines[i]))
		if i+1 < len(lines) && !isItem(lines[i+1]) {
			b.WriteString("<br>")
		}
		i++
	}
	return template.HTML(b.String()) // #nosec: built from escaped text and fixed tags only
}

func isItem(line string) bool { return strings.HasPrefix(strings.TrimLeft(line, " "), "- ") }

// inline renders one line: code spans first (nothing inside them is
// markup), then bold and italic in the rest.
func inline(line string) string {
	parts := strings.Split(line, "`")
	var b strings.Builder
	for i, p := range parts {
		switch {
		case i%2 == 1 && i < len(parts)-1: // a closing backtick follows
			b.WriteString("<code>" + html.EscapeString(p) + "</code>")
		case i%2 == 1:
			b.WriteString("`" + emphasis(html.EscapeString(p)))
		default:
			b.WriteString(emphasis(html.EscapeString(p)))
		}
	}
	return b.String()
}

// emphasis marks up bold and italic in escaped text.
func emphasis(s string) string {
	s = boldRE.ReplaceAllString(s, "<strong>$1</strong>")
	for range 2 { // a boundary consumed by one match can start the next
		s = italicRE.ReplaceAllString(s, "$1<em>$2</em>$3")
	}
	return s
}
