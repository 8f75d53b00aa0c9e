package agent

import (
	"fmt"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// roundText renders a finished round verbatim: messages, proposals, the
// vote and the decision that followed.
func roundText(v roundtable.View, r roundtable.RoundRecord) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### Round %d\n", r.Round)
	b.WriteString(messagesText(v, r.Messages))
	b.WriteString(proposalsText(v, r))
	if len(r.Candidates) > 0 {
		b.WriteString("Candidates:\n")
		for _, c := range r.Candidates {
			fmt.Fprintf(&b, "- %s: %s\n", c.ID, quote(c.Proposal.Text))
		}
	}
	if r.Tally != nil {
		b.WriteString("Vote: " + tallyText(v, r.Tally) + "\n")
	}
	if r.Decision != nil {
		b.WriteString("Decision in force after the round: " + quote(r.Decision.Proposal.Text) + "\n")
	} else {
		b.WriteString("Still nothing decided after the round.\n")
	}
	return b.String()
}

// currentText renders what Self may see of the round in progress.
func currentText(v roundtable.View) string {
	r := v.Current
	if len(r.Messages) == 0 && len(r.Proposals) == 0 && len(r.Skipped) == 0 {
		return ""
	}
	return fmt.Sprintf("### Round %d (now)\n", v.Round) + messagesText(v, r.Messages) + proposalsText(v, r)
}

func messagesText(v roundtable.View, ms []roundtable.Message) string {
	if len(ms) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Messages:\n")
	for _, m := range ms {
		fmt.Fprintf(&b, "- %s to %s: %s\n", v.Name(m.From), audience(v, m.To), oneLine(m.Text))
	}
	return b.String()
}

func audience(v roundtable.View, to []string) string {
	if len(to) == 0 {
		return "everyone"
	}
	names := make([]string, len(to))
	for i, id := range to {
		names[i] = v.Name(id)
		if id == v.Self.ID {
			names[i] = "you"
		}
	}
	return strings.Join(names, ", ")
}

func proposalsText(v roundtable.View, r roundtable.RoundRecord) string {
	var lines []string
	for _, p := range r.Proposals {
		lines = append(lines, fmt.Sprintf("- %s proposed %s", v.Name(p.By), quote(p.Proposal.Text)))
	}
	for _, id := range r.Skipped {
		lines = append(lines, fmt.Sprintf("- %s passed", v.Name(id)))
	}
	for _, f := range r.Failures {
		lines = append(lines, fmt.Sprintf("- %s did not act in the %s phase (%s)", v.Name(f.Participant), f.Phase, f.Kind))
	}
	if len(lines) == 0 {
		return ""
	}
	return "Proposals:\n" + strings.Join(lines, "\n") + "\n"
}

// tallyText renders a tally: totals by candidate, then the outcome.
func tallyText(v roundtable.View, t *roundtable.Tally) string {
	ids := make([]string, 0, len(t.Totals))
	for id := range t.Totals {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id + " " + t.Totals[id].String()
	}
	s := "totals " + strings.Join(parts, ", ")
	if len(ids) == 0 {
		s = "no totals"
	}
	s += fmt.Sprintf(" (%d ballots counted, %d abstained)", t.Counted, t.Abstained)
	if t.Winner != "" {
		return s + "; " + t.Winner + " won"
	}
	if t.Reason != "" {
		return s + "; no winner: " + t.Reason
	}
	return s + "; no winner"
}

// lastTally renders the previous round's vote for the vote instruction.
func lastTally(v roundtable.View) string {
	if len(v.History) == 0 {
		return ""
	}
	r := v.History[len(v.History)-1]
	if r.Tally == nil {
		return ""
	}
	return fmt.Sprintf("Last vote (round %d): %s\n", r.Round, tallyText(v, r.Tally))
}

// roundLine compresses a finished round to one short line,
// deterministically: the start of each message and the outcome of the
// vote with the decision's text. Proposals that lost are left out (the
// rounds kept verbatim show the recent ones), which keeps window memory
// within 40% of full history at round 10 (BenchmarkWindowMemory).
func roundLine(v roundtable.View, r roundtable.RoundRecord) string {
	var parts []string
	for _, m := range r.Messages {
		parts = append(parts, v.Name(m.From)+": "+quote(clip(m.Text, lineClip)))
	}
	switch {
	case r.Tally != nil && r.Tally.Winner != "" && r.Decision != nil:
		parts = append(parts, r.Tally.Winner+" won: "+quote(clip(r.Decision.Proposal.Text, lineClip)))
	case r.Tally != nil && r.Tally.Winner != "":
		parts = append(parts, r.Tally.Winner+" won")
	case r.Tally != nil:
		parts = append(parts, "no winner")
	}
	return fmt.Sprintf("- Round %d: %s.", r.Round, strings.Join(parts, "; "))
}

// lineClip is how many characters of a message or decision a compressed
// round keeps.
const lineClip = 32

// clip shortens s to at most n runes on a word boundary.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n])
	if i := strings.LastIndex(cut, " "); i > n/2 {
		cut = cut[:i]
	}
	return cut + "..."
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
