package bot

import (
	"strings"
	"unicode"
)

// What people send can carry characters their clients do not show:
// zero-width spaces and joiners, bidirectional controls, soft hyphens,
// tag characters, fillers. Copied with a post, they end up in a
// proposal, a ballot, the log, the exports and the agents' prompts,
// where they make equal texts differ and can hide text. Every adapter
// strips them from people's events where they come in (Event.Strip).
//
// Two of them carry meaning between visible characters and are kept
// there: the zero-width joiner and non-joiner, which join emoji into one
// (👩‍💻) and shape Arabic and Indic scripts; and tag characters, kept in
// the emoji tag sequences of subdivision flags (🏴 followed by tags).

// invisible reports the characters Visible drops wherever they are.
func invisible(r rune) bool {
	switch {
	case r == '\u00ad', // soft hyphen
		r == '\u034f',                // combining grapheme joiner
		r == '\u061c',                // Arabic letter mark
		r == '\u115f', r == '\u1160', // Hangul choseong and jungseong fillers
		r == '\u17b4', r == '\u17b5', // Khmer inherent vowels
		r == '\u180e',                // Mongolian vowel separator
		r == '\u200b',                // zero-width space
		r == '\u200e', r == '\u200f', // left-to-right and right-to-left marks
		r >= '\u202a' && r <= '\u202e', // bidi embeddings and overrides
		r >= '\u2060' && r <= '\u2064', // word joiner, invisible operators
		r >= '\u2066' && r <= '\u206f', // bidi isolates, deprecated format characters
		r == '\u3164', r == '\uffa0',   // Hangul fillers
		r == '\ufeff',                  // zero-width no-break space (BOM)
		r >= '\ufff9' && r <= '\ufffb', // interlinear annotation
		r >= 0x1d173 && r <= 0x1d17a,   // musical formatting
		r >= 0xe0000 && r < 0xe0020:    // the language tag and unassigned tags
		return true
	}
	return false
}

// joiner reports the zero-width joiner and non-joiner.
func joiner(r rune) bool { return r == '\u200c' || r == '\u200d' }

// tag reports the tag characters of emoji tag sequences (U+E0020 to
// U+E007E, ended by U+E007F CANCEL TAG).
func tag(r rune) bool { return r >= 0xe0020 && r <= 0xe007f }

// blackFlag starts the emoji tag sequences of subdivision flags.
const blackFlag = '\U0001F3F4'

// Visible returns s without the characters people's clients do not show
// (see above), keeping joiners between visible characters and the tags
// of a flag's tag sequence.
func Visible(s string) string {
	if !hasHidden(s) {
		return s
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	inFlag := false
	for i, r := range rs {
		switch {
		case invisible(r):
			continue
		case joiner(r):
			if i == 0 || i == len(rs)-1 || !shown(rs[i-1]) || !shown(rs[i+1]) {
				continue
			}
		case tag(r):
			if !inFlag {
				continue
			}
			inFlag = r != 0xe007f
		default:
			inFlag = r == blackFlag
		}
		b.WriteRune(r)
	}
	return b.String()
}

// shown reports a character that is neither invisible nor a space, which
// a joiner may join.
func shown(r rune) bool {
	return !invisible(r) && !joiner(r) && !tag(r) && !unicode.IsSpace(r)
}

// hasHidden reports whether s holds any character Visible may drop.
func hasHidden(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return invisible(r) || joiner(r) || tag(r) }) >= 0
}

// Strip removes the characters people's clients do not show (Visible)
// from everything a person typed into ev: its text, its command options,
// its form fields, its select values and the person's display name.
// Adapters call it on every event they make from a person's act.
func (ev *Event) Strip() {
	ev.Text = Visible(ev.Text)
	ev.User.Name = Visible(ev.User.Name)
	for i, v := range ev.Values {
		ev.Values[i] = Visible(v)
	}
	for _, m := range []map[string]string{ev.Options, ev.Fields} {
		for k, v := range m {
			m[k] = Visible(v)
		}
	}
}
