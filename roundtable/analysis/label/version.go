package label

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// PromptVersion is the version of the prompts a labeler asks qs with:
// the first 12 hex digits of a SHA-256 over each question's system
// prompt, user prompt and answer schema, as Sampler and Negotiator send
// them. Give questions with placeholder texts (and statements), so the
// version names the wording, not the text labelled; it changes whenever
// an instrument's question or the labelling prompt does. Demonstrations
// attached at labelling time are not part of it.
func PromptVersion(qs ...Question) string {
	h := sha256.New()
	for _, q := range qs {
		s := labelSchema(q, q.Labels)
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00", systemPrompt(q, q.Labels), userPrompt(q, s), s.JSON)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// DataVersion is the version of an instrument's data (a lexicon, a
// dictionary): the first 12 hex digits of a SHA-256 over its lines,
// which the caller gives in a fixed order.
func DataVersion(lines ...string) string {
	h := sha256.New()
	for _, l := range lines {
		fmt.Fprintf(h, "%s\n", l)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}
