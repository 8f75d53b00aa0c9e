package acts

import (
	"context"
	"regexp"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
)

// CueTagger is the offline Tagger: an act applies when one of its cue
// phrases occurs in the message (case-insensitive, on word boundaries);
// a message with none is Others. It ignores the previous round. It is a
// coarse stand-in for a model, named "cue-phrases" wherever it is used.
type CueTagger struct{}

var _ Tagger = CueTagger{}

// Model implements Tagger.
func (CueTagger) Model() string { return "cue-phrases" }

// cues maps each act to its cue phrases, in All's order.
var cues = []struct {
	act string
	re  *regexp.Regexp
}{
	{Inform, cue(`note that|in fact|according to|for example|the data|there (?:is|are)|i (?:have|know)`)},
	{Request, regexp.MustCompile(cue(`could you|can you|would you|please|what do you|what about|why|how`).String() + `|\?`)},
	{Confirm, cue(`yes|right|exactly|indeed|correct|that's true|confirmed`)},
	{Summarize, cue(`to sum up|in summary|so far|overall|in short|we have agreed|to recap`)},
	{Evaluate, cue(`better|worse|fair|unfair|good|bad|too (?:high|low|much)|the best|the downside|the advantage|cost|benefit`)},
	{Propose, cue(`i propose|we should|let's|let us|i suggest|how about|my proposal|we could`)},
	{Compromise, cue(`compromise|middle ground|meet (?:you )?halfway|split the difference|both sides|as a trade-?off|in exchange`)},
	{Defend, cue(`as i said|i still (?:think|believe)|i stand by|my point|because|i maintain`)},
	{Accept, cue(`i agree|agreed|i accept|sounds good|i support|fine with|okay with|i'm in`)},
	{Decline, cue(`i disagree|i reject|i don't agree|i do not agree|no way|i can't accept|i cannot accept|i oppose|not acceptable`)},
}

// cue compiles alternatives that must stand as whole words.
func cue(alts string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^\pL\pN'])(?:` + alts + `)(?:[^\pL\pN']|$)`)
}

// Tag implements Tagger; it never fails.
func (CueTagger) Tag(_ context.Context, text string, _ []string) (Result, error) {
	var out []string
	for _, c := range cues {
		if c.re.MatchString(text) {
			out = append(out, c.act)
		}
	}
	if len(out) == 0 {
		out = []string{Others}
	}
	return Result{Acts: out}, nil
}

// Version is the version of the cue phrases (label.DataVersion).
func (CueTagger) Version() string {
	lines := make([]string, len(cues))
	for i, c := range cues {
		lines[i] = c.act + "\t" + c.re.String()
	}
	return label.DataVersion(lines...)
}
