package sentiment

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
)

// conjunction matches the contrastive conjunctions, "even though" before
// "though".
var conjunction = regexp.MustCompile(`(?i)\b(?:even though|although|though|but|however|whereas|while|yet)\b`)

// contrastPieces splits one sentence at its contrastive conjunctions:
//
//   - a leading subordinator ("Although X, Y", "Though", "Even though",
//     "While", "Whereas") splits the sentence at the first comma after it
//     into X and Y (without a comma it is dropped and the rest is one
//     piece);
//   - a leading "But", "However" or "Yet" is dropped: it contrasts with the
//     previous sentence, already an argument of its own;
//   - inside the sentence, "but" (not "but also"), "although", "even
//     though", "though" (not "as though") and "whereas" split wherever
//     they stand; "yet" and "while" only after a comma or semicolon, or as
//     ", and yet" (else they are the adverb "not yet" and the temporal
//     "while"); "however" after a semicolon, or after a comma when at
//     least three words precede it ("The plan, however, costs more" stays
//     whole; "The first plan is fine, however, the second is not" splits).
//
// Each piece is split again the same way, and trimmed of spaces and the
// punctuation ",;:" at its ends.
func contrastPieces(sent string) []string {
	sent = trimPiece(sent)
	m := conjunction.FindStringIndex(sent)
	if m == nil {
		return []string{sent}
	}
	if m[0] == strings.IndexFunc(sent, isWordRune) {
		return leadingPieces(strings.ToLower(sent[m[0]:m[1]]), sent[m[1]:])
	}
	for _, m := range conjunction.FindAllStringIndex(sent, -1) {
		if cut, ok := splitAt(sent, m); ok {
			return append([]string{trimPiece(sent[:cut])}, contrastPieces(sent[m[1]:])...)
		}
	}
	return []string{sent}
}

// leadingPieces are the pieces of a sentence that opens with word.
func leadingPieces(word, rest string) []string {
	switch word {
	case "but", "however", "yet":
		return contrastPieces(rest)
	}
	if i := strings.IndexByte(rest, ','); i >= 0 {
		return append(contrastPieces(rest[:i]), contrastPieces(rest[i+1:])...)
	}
	return contrastPieces(rest)
}

// splitAt says whether the conjunction at m splits sent, and where the
// piece before it ends.
func splitAt(sent string, m []int) (int, bool) {
	word := strings.ToLower(sent[m[0]:m[1]])
	before := strings.TrimRight(sent[:m[0]], " ")
	lower := strings.ToLower(before)
	after := strings.Fields(strings.ToLower(sent[m[1]:]))
	punct := strings.HasSuffix(before, ",") || strings.HasSuffix(before, ";")
	switch word {
	case "but":
		return m[0], len(after) == 0 || strings.Trim(after[0], ",;:") != "also"
	case "although", "even though", "whereas":
		return m[0], true
	case "though":
		return m[0], !strings.HasSuffix(lower, " as") && lower != "as"
	case "yet", "while":
		if word == "yet" && strings.HasSuffix(lower, ", and") {
			return len(before) - len(" and"), true
		}
		return m[0], punct
	case "however":
		if strings.HasSuffix(before, ";") {
			return m[0], true
		}
		return m[0], strings.HasSuffix(before, ",") && len(prose.Words(before)) >= 3
	}
	return 0, false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// trimPiece trims spaces and the punctuation ",;:" at both ends.
func trimPiece(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(",;:", r) })
}
