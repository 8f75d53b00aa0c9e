package mediation

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// KindStitch is the model-free agent kind: at a mediator seat it
// stitches statements from sentences of the opinions and critiques; in a
// person's seat it writes an opinion from its stance, ranks candidates by
// how many of its own words they keep, and critiques by what the
// statement leaves out.
const KindStitch = "stitch"

// StitchReasoning is what a model-free mediator records with each
// candidate (its private reasoning, in the log), so that no reader takes
// a stitched statement for a model's.
const StitchReasoning = "model-free mediator: this statement is stitched from sentences of the group's texts, in a shuffled order; no language model wrote it"

// Stitch is the model-free agent. The zero value is ready to use.
type Stitch struct{}

var _ roundtable.Agent = Stitch{}

// Act implements roundtable.Agent.
func (Stitch) Act(_ context.Context, v roundtable.View) (roundtable.Action, error) {
	if v.Self.Mediates() {
		if v.Phase != roundtable.PhaseProposal {
			return roundtable.Skip{Reasoning: "the mediator only writes candidates"}, nil
		}
		text, order := stitch(v)
		return roundtable.Propose{Proposal: roundtable.Proposal{Text: text}, Reasoning: fmt.Sprintf("%s (read in the order %v of the table's, no names)", StitchReasoning, order)}, nil
	}
	own := ownText(v)
	switch v.Phase {
	case roundtable.PhasePrivate:
		if v.Decision != nil {
			return roundtable.Say{Text: critique(v.Decision.Proposal.Text, own)}, nil
		}
		return roundtable.Say{Text: opinion(v)}, nil
	case roundtable.PhaseVote:
		return roundtable.Cast{Ballot: rankByOverlap(v.Rule, v.Candidates, own)}, nil
	case roundtable.PhaseSurvey:
		return roundtable.Report{Values: []float64{endorsement(v, own)}}, nil
	case roundtable.PhaseProposal:
		return roundtable.Skip{Reasoning: "the mediator writes the candidates"}, nil
	}
	return roundtable.Say{Text: "I have nothing to add."}, nil
}

// stitch is a mediator's candidate and the order it read the texts in
// (Read): in the first round a sentence drawn from every opinion; later
// the decision followed by a sentence drawn from some critiques.
func stitch(v roundtable.View) (string, []int) {
	texts, order := Read(v)
	rng := protocol.Rand(v, fmt.Sprintf("stitch-%d", v.Round))
	var parts []string
	if v.Decision != nil {
		parts = sentences(v.Decision.Proposal.Text)
		texts = texts[:min(len(texts), 1+rng.IntN(max(len(texts), 1)))]
	}
	for _, t := range texts {
		if _, asked, ok := strings.Cut(t, ": "); ok {
			t = asked // a critique's request: what follows "Please add: "
		} else if v.Decision != nil {
			continue // a critique that asks for nothing
		}
		s := sentences(t)
		if len(s) == 0 {
			continue
		}
		if x := s[rng.IntN(len(s))]; !slices.Contains(parts, x) {
			parts = append(parts, x)
		}
	}
	if len(parts) == 0 {
		return "We could not hear from anyone yet; the group's statement is still to be written.", order
	}
	return strings.Join(parts, " "), order
}

// Inputs are the texts a mediator reads in the open round: the private
// messages addressed to it (opinions, or critiques once there is a
// decision), without their authors, in table order; a mediator shuffles
// them before reading.
func Inputs(v roundtable.View) []string {
	var out []string
	for _, m := range v.Current.Messages {
		if m.Private && slices.Contains(m.To, v.Self.ID) {
			out = append(out, m.Text)
		}
	}
	return out
}

// sentences splits text into its sentences, each ending in its mark.
func sentences(text string) []string {
	var out []string
	start := 0
	for i, r := range text {
		if r == '.' || r == '!' || r == '?' {
			if s := strings.TrimSpace(text[start : i+1]); len(s) > 1 {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s+".")
	}
	return out
}

// opinion is a person's opinion from its stance on -2..2.
func opinion(v roundtable.View) string {
	lead := map[string]string{"2": "I strongly support acting on this.", "1": "I lean towards acting on this.", "0": "I am undecided about this.",
		"-1": "I lean against acting on this.", "-2": "I strongly oppose acting on this."}[strings.TrimSpace(v.Self.Stance)]
	if lead == "" {
		lead = "I have a view on this."
	}
	reasons := []string{"Cost matters most to me.", "Fairness to every neighbour matters most to me.", "Safety for children matters most to me.",
		"Local shops must not suffer.", "Clean air is what I care about.", "Whatever we do should be tried first and reviewed."}
	rng := protocol.Rand(v, "opinion")
	return lead + " " + reasons[rng.IntN(len(reasons))] + " " + reasons[rng.IntN(len(reasons))]
}

// ownText is the person's opinion: what it wrote privately in the first
// round.
func ownText(v roundtable.View) string {
	first := v.Current
	if len(v.History) > 0 {
		first = v.History[0]
	}
	var b strings.Builder
	for _, m := range first.Messages {
		if m.From == v.Self.ID && m.Private {
			b.WriteString(m.Text + " ")
		}
	}
	return b.String()
}

// critique asks for a sentence of the person's own that the statement
// leaves out, or for no change.
func critique(statement, own string) string {
	for _, s := range sentences(own) {
		if overlap(statement, s) < 0.5 {
			return "It leaves out what matters to me. Please add: " + s
		}
	}
	return "I can live with this statement as it is; no change needed."
}

// rankByOverlap ranks candidates by the share of the person's words each
// keeps, best first (ties in the order shown).
func rankByOverlap(rule vote.Rule, cands []roundtable.Candidate, own string) vote.Ballot {
	order := slices.Clone(cands)
	slices.SortStableFunc(order, func(a, b roundtable.Candidate) int {
		x, y := overlap(a.Proposal.Text, own), overlap(b.Proposal.Text, own)
		switch {
		case x > y:
			return -1
		case x < y:
			return 1
		}
		return 0
	})
	ids := make([]string, len(order))
	for i, c := range order {
		ids[i] = c.ID
	}
	if len(ids) == 0 {
		return vote.Ballot{Abstain: true}
	}
	switch rule.Format() {
	case vote.FormatRanking:
		return vote.Ballot{Ranking: ids}
	case vote.FormatApprove:
		return vote.Ballot{Approve: ids[:1]}
	}
	return vote.Ballot{Choice: ids[0]}
}

// endorsement is 1..7 by how much of the person's words the decision keeps.
func endorsement(v roundtable.View, own string) float64 {
	if v.Decision == nil {
		return 1
	}
	return float64(1 + int(6*overlap(v.Decision.Proposal.Text, own)+0.5))
}

// overlap is the share of the distinct words of b that a contains.
func overlap(a, b string) float64 {
	have := map[string]bool{}
	for _, w := range words(a) {
		have[w] = true
	}
	bs := words(b)
	if len(bs) == 0 {
		return 0
	}
	seen, hit := map[string]bool{}, 0
	for _, w := range bs {
		if !seen[w] {
			seen[w] = true
			if have[w] {
				hit++
			}
		}
	}
	return float64(hit) / float64(len(seen))
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127) })
}
