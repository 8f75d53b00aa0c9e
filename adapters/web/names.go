package web

import (
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Display names at a table must tell people apart and must not pass for
// a role: two names that look alike (case, spacing, accents, digits for
// letters, Cyrillic or Greek look-alikes) are one name, and a name may
// not contain a word that names a role ("Olivia (organiser)").

// roleWords are the words a display name may not contain, because the
// room shows them as roles or the server's own voice.
var roleWords = []string{"organiser", "organizer", "organisateur", "facilitator", "moderator", "host", "admin",
	"administrator", "owner", "roundtable", "bot", "system", "you", "staff"}

// confusables maps characters that look like a Latin letter to it (a
// small part of Unicode's confusables list: what a keyboard or a phone
// readily produces).
var confusables = map[rune]rune{
	'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't',
	'у': 'y', 'х': 'x', 'і': 'l', 'ї': 'l', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd', 'ɡ': 'g', 'ո': 'n', 'ս': 'u',
	'α': 'a', 'β': 'b', 'ε': 'e', 'η': 'n', 'ι': 'l', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x',
	'0': 'o', '1': 'l', 'i': 'l', '|': 'l', '!': 'l', '3': 'e', '5': 's', '$': 's', '@': 'a', 'ı': 'l',
}

// skeleton reduces a name to what it looks like: compatibility-decomposed,
// without accents, case, spacing or punctuation, look-alikes folded.
func skeleton(name string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(strings.ToLower(name)) {
		r = unicode.ToLower(r)
		if c, ok := confusables[r]; ok {
			r = c
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	s := strings.ReplaceAll(b.String(), "rn", "m")
	return strings.ReplaceAll(s, "vv", "w")
}

// words splits a name into its words' skeletons.
func words(name string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(norm.NFKC.String(name), func(r rune) bool {
		_, look := confusables[r]
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !look && !unicode.Is(unicode.Mn, r)
	}) {
		if s := skeleton(w); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// nameProblem says why name cannot be a display name, or "".
func nameProblem(name string) string {
	if skeleton(name) == "" {
		return "Please choose a name with at least one letter."
	}
	ws := words(name)
	for _, role := range roleWords {
		rs := skeleton(role)
		for _, w := range ws {
			if w == rs || len(ws) == 1 && strings.Contains(w, rs) && len(rs) >= 5 {
				return fmt.Sprintf("The name %q looks like a role (%s): choose a name that is yours alone.", name, role)
			}
		}
	}
	return ""
}

// nameTaken reports, for a participant who, whether the table already
// seats someone else under a name that looks like name.
func nameTaken(s *roundtable.State, who, name string) (roundtable.Participant, bool) {
	sk := skeleton(name)
	for _, p := range s.Participants {
		if p.ID != who && skeleton(p.Name) == sk {
			return p, true
		}
	}
	return roundtable.Participant{}, false
}
