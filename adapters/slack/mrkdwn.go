package slack

import (
	"strings"
	"unicode/utf8"
)

// The bot writes a small markdown subset (**bold**, _italic_, `code`,
// "- " lists). Slack's mrkdwn differs: *bold*, no list syntax, and &, <
// and > must be escaped (< starts links and mentions, so escaping also
// keeps an agent from pinging @channel).

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// mrkdwn converts the bot's markdown to Slack mrkdwn.
func mrkdwn(s string) string {
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		lines[i] = mrkdwnLine(line)
	}
	return strings.Join(lines, "\n")
}

// mrkdwnLine converts one line: bold outside code spans, escaping
// everywhere, a leading "- " to a bullet.
func mrkdwnLine(line string) string {
	if rest, ok := strings.CutPrefix(line, "- "); ok {
		line = "• " + rest
	}
	parts := strings.Split(line, "`")
	for i, p := range parts {
		p = escaper.Replace(p)
		if i%2 == 0 || i == len(parts)-1 { // outside code (an unclosed ` is literal)
			p = strings.ReplaceAll(p, "**", "*")
		}
		parts[i] = p
	}
	return strings.Join(parts, "`")
}

// plain is text for places that show no formatting (option texts,
// placeholders, modal titles): markdown marks are dropped.
func plain(s string) string {
	return strings.NewReplacer("**", "", "`", "").Replace(s)
}

// clip shortens s to at most n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// splitText cuts mrkdwn text into pieces of at most n bytes, preferring
// line breaks, then spaces, and never cutting a character or an escape
// (&amp;) in two. The separator at a cut is dropped.
func splitText(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut, skip := cutPoint(s, n)
		if piece := strings.TrimRight(s[:cut], " \n"); piece != "" {
			out = append(out, piece)
		}
		s = s[cut+skip:]
	}
	if strings.TrimSpace(s) != "" || len(out) == 0 {
		out = append(out, s)
	}
	return out
}

// cutPoint finds where to cut s within n bytes, and how many separator
// bytes follow the cut.
func cutPoint(s string, n int) (int, int) {
	head := s[:n+1] // a separator right at n still counts
	if i := strings.LastIndex(head, "\n"); i > n/2 {
		return i, 1
	}
	if i := strings.LastIndex(head, " "); i > n/2 {
		return i, 1
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if amp := strings.LastIndex(s[:cut], "&"); amp >= 0 && cut-amp < len("&amp;") && !strings.Contains(s[amp:cut], ";") {
		cut = amp
	}
	return cut, 0
}
