package bot

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Unreadable says why a body of JSON that a person's act came in cannot
// be taken as they wrote it, or "" if it can: bytes that are not UTF-8,
// or a \u escape of half a UTF-16 surrogate pair without its other half
// (such as "\ud800"), which is not a character. encoding/json would
// replace either with U+FFFD without a word, and the log would keep text
// its author did not write; adapters refuse the act instead, with this
// reason, at every edge where JSON comes in.
func Unreadable(raw []byte) string {
	if !utf8.Valid(raw) {
		return fmt.Sprintf("it is not valid UTF-8 (first bad byte at offset %d)", invalidUTF8At(raw))
	}
	if at, esc, ok := loneSurrogate(raw); ok {
		return fmt.Sprintf("it holds %s at offset %d, half of a UTF-16 surrogate pair, which is not a character", esc, at)
	}
	return ""
}

// invalidUTF8At returns the offset of the first byte that is not UTF-8.
func invalidUTF8At(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(data)
}

// loneSurrogate finds, inside the strings of a JSON text, the first \u
// escape of a surrogate that is not half of a pair: a high one not
// followed by an escaped low one, or a low one on its own.
func loneSurrogate(raw []byte) (at int, esc string, found bool) {
	inString := false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(raw):
			if raw[i+1] != 'u' {
				i++ // an escaped character: \" \\ \n ...
				continue
			}
			r, ok := escapedUnit(raw, i)
			switch {
			case !ok || !utf16.IsSurrogate(r):
			case r < 0xdc00: // high: its low half must follow
				if low, ok := escapedUnit(raw, i+6); ok && low >= 0xdc00 && low <= 0xdfff {
					i += 6
				} else {
					return i, string(raw[i : i+6]), true
				}
			default: // a low half without a high one before it
				return i, string(raw[i : i+6]), true
			}
			i += 5
		}
	}
	return 0, "", false
}

// escapedUnit reads the UTF-16 unit of the \uXXXX escape at raw[i:].
func escapedUnit(raw []byte, i int) (rune, bool) {
	if i+6 > len(raw) || raw[i] != '\\' || raw[i+1] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(raw[i+2:i+6]), 16, 16)
	return rune(n), err == nil
}

// CannotRead is the ephemeral reply to an act refused as Unreadable, for
// the reason why.
func CannotRead(why string) Reply {
	return Reply{Text: "What you sent cannot be taken as you wrote it: " + why + ". Please send it again without that.", Ephemeral: true}
}
