package bot

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Platform widgets have limits: a select holds at most 25 options and a
// form (Discord's modal) at most 5 fields. Past them the bot falls back to
// one text field in the ballot syntax ParseBallot reads.
const (
	maxSelectOptions = 25
	maxFormFields    = 5
	maxOptionLabel   = 75   // Slack's limit; Discord allows 100
	maxInput         = 3000 // Slack's text inputs; Discord allows 4000
	maxFormTitle     = 24   // Slack's modal titles; Discord allows 45
	abstainValue     = "abstain"
	textField        = "ballot"
	reasonField      = "reason" // the optional reason of a ballot (form field and command option)
)

// ballotControls are the controls of a vote phase's message.
func ballotControls(table string, round int, rule vote.Rule, cands []roundtable.Candidate) []Control {
	r := ref{Table: table, Round: round}
	abstain := Control{ID: withVerb(r, verbAbstain), Kind: Button, Label: "Abstain"}
	switch {
	case rule.Format() == vote.FormatChoice && len(cands) < maxSelectOptions:
		return []Control{{ID: withVerb(r, verbChoose), Kind: Select, Label: "Vote for one candidate",
			Options: candidateOptions(cands), Min: 1, Max: 1}, abstain}
	case rule.Format() == vote.FormatApprove && len(cands) <= maxSelectOptions:
		return []Control{{ID: withVerb(r, verbChoose), Kind: Select, Label: "Approve any number of candidates",
			Options: candidateOptions(cands), Min: 0, Max: len(cands)}, abstain}
	}
	return []Control{{ID: withVerb(r, verbBallot), Kind: Button, Label: "Fill in your ballot", Primary: true}, abstain}
}

func withVerb(r ref, verb string) string { r.Verb = verb; return r.String() }

func candidateOptions(cands []roundtable.Candidate) []Option {
	opts := make([]Option, len(cands))
	for i, c := range cands {
		opts[i] = Option{Value: c.ID, Label: clip(c.ID+": "+c.Proposal.Text, maxOptionLabel)}
	}
	return opts
}

// ballotForm is the form for rules whose ballot is more than one choice.
func ballotForm(table string, round int, rule vote.Rule, cands []roundtable.Candidate) Form {
	f := Form{ID: ref{table, round, verbBallot}.String(), Title: clip(fmt.Sprintf("Round %d ballot", round), maxFormTitle)}
	ids := candidateIDs(cands)
	small := len(cands) <= maxFormFields
	switch {
	case rule.Format() == vote.FormatScores && small:
		for _, c := range cands {
			f.Fields = append(f.Fields, Field{ID: c.ID, Label: clip("Score for "+c.ID+" (1 to 5)", 45), MaxLen: 1, Options: numberOptions(1, 5)})
		}
	case rule.Format() == vote.FormatPoints && small:
		for _, c := range cands {
			f.Fields = append(f.Fields, Field{ID: c.ID, Label: clip(fmt.Sprintf("Points for %s (total at most %d)", c.ID, len(cands)), 45), MaxLen: 3, Optional: true, Placeholder: "0"})
		}
	case rule.Format() == vote.FormatRanking && small:
		for i := range cands {
			f.Fields = append(f.Fields, Field{ID: fmt.Sprintf("rank%d", i+1), Label: clip(ordinal(i+1)+" choice: "+strings.Join(ids, ", "), 45),
				MaxLen: 3, Optional: rule != vote.Borda && i > 0, Options: candidateOptions(cands)})
		}
	default:
		f.Fields = []Field{{ID: textField, Label: "Your ballot", Long: true, MaxLen: 1000, Placeholder: ballotExample(rule, ids)}}
	}
	if len(f.Fields) < maxFormFields {
		f.Fields = append(f.Fields, Field{ID: reasonField, Label: "Why (shown when the vote closes)", Long: true, MaxLen: 1000, Optional: true})
	}
	return f
}

func numberOptions(lo, hi int) []Option {
	var o []Option
	for i := lo; i <= hi; i++ {
		o = append(o, Option{Value: strconv.Itoa(i), Label: strconv.Itoa(i)})
	}
	return o
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// ballotExample shows the ballot syntax of rule.
func ballotExample(rule vote.Rule, ids []string) string {
	a, b := "A", "B"
	if len(ids) > 1 {
		a, b = ids[0], ids[1]
	}
	switch rule.Format() {
	case vote.FormatScores:
		return fmt.Sprintf("%s=5 %s=2 ... (a score 1-5 for every candidate)", a, b)
	case vote.FormatRanking:
		return fmt.Sprintf("%s > %s > ... (best first)", b, a)
	case vote.FormatPoints:
		return fmt.Sprintf("%s=2 %s=1 (at most %d points in all)", a, b, len(ids))
	case vote.FormatApprove:
		return fmt.Sprintf("%s %s (the candidates you approve)", a, b)
	}
	return a + " (one candidate), or abstain"
}

// ballotFromForm reads a submitted ballot form.
func ballotFromForm(rule vote.Rule, cands []roundtable.Candidate, fields map[string]string) (vote.Ballot, error) {
	if text, ok := fields[textField]; ok {
		return ParseBallot(rule, text)
	}
	var parts []string
	switch rule.Format() {
	case vote.FormatRanking:
		for i := range cands {
			if v := strings.TrimSpace(fields[fmt.Sprintf("rank%d", i+1)]); v != "" {
				parts = append(parts, v)
			}
		}
		return ParseBallot(rule, strings.Join(parts, " > "))
	default:
		for _, c := range cands {
			if v := strings.TrimSpace(fields[c.ID]); v != "" {
				parts = append(parts, c.ID+"="+v)
			}
		}
		return ParseBallot(rule, strings.Join(parts, " "))
	}
}

var (
	pairRE  = regexp.MustCompile(`^([A-Za-z]+)\s*[=:]\s*(-?\d+)$`)
	splitRE = regexp.MustCompile(`[\s,;>]+`)
)

// ParseBallot reads a ballot written as text, the syntax of the vote
// command and of the fallback ballot form:
//
//	abstain           any rule
//	B                 unanimous, majority, plurality
//	A=5 B=3 C=1       rated (every candidate), cumulative (points)
//	C > A > B         ranked, borda, irv (best first; commas or spaces work too)
//	A C               approval
//
// Candidate letters are case-insensitive. It checks the syntax only; the
// rule's own checks (ranges, budgets, unknown candidates) come after.
func ParseBallot(rule vote.Rule, text string) (vote.Ballot, error) {
	text = strings.TrimSpace(text)
	if strings.EqualFold(text, abstainValue) {
		return vote.Ballot{Abstain: true}, nil
	}
	if text == "" {
		return vote.Ballot{}, fmt.Errorf("the ballot is empty; write for example %q", ballotExample(rule, nil))
	}
	switch rule.Format() {
	case vote.FormatScores, vote.FormatPoints:
		m, err := parsePairs(text)
		if err != nil {
			return vote.Ballot{}, err
		}
		if rule.Format() == vote.FormatScores {
			return vote.Ballot{Scores: m}, nil
		}
		return vote.Ballot{Points: m}, nil
	case vote.FormatRanking:
		return vote.Ballot{Ranking: words(text)}, nil
	case vote.FormatApprove:
		w := words(text)
		if len(w) > 0 && w[0] == "APPROVE" {
			w = w[1:] // the form Ballot.String writes
		}
		if len(w) == 1 && w[0] == "NONE" {
			w = []string{}
		}
		return vote.Ballot{Approve: w}, nil
	}
	w := words(text)
	if len(w) != 1 {
		return vote.Ballot{}, fmt.Errorf("name exactly one candidate (or abstain), not %q", text)
	}
	return vote.Ballot{Choice: w[0]}, nil
}

func words(text string) []string {
	var out []string
	for _, w := range splitRE.Split(text, -1) {
		if w != "" {
			out = append(out, strings.ToUpper(w))
		}
	}
	return out
}

func parsePairs(text string) (map[string]int, error) {
	m := map[string]int{}
	for _, item := range regexp.MustCompile(`[\s,;]+`).Split(text, -1) {
		if item == "" {
			continue
		}
		p := pairRE.FindStringSubmatch(item)
		if p == nil {
			return nil, fmt.Errorf("cannot read %q: write CANDIDATE=NUMBER, e.g. A=3", item)
		}
		n, err := strconv.Atoi(p[2])
		if err != nil {
			return nil, fmt.Errorf("cannot read the number in %q", item)
		}
		id := strings.ToUpper(p[1])
		if _, dup := m[id]; dup {
			return nil, fmt.Errorf("candidate %s appears twice", id)
		}
		m[id] = n
	}
	return m, nil
}

func candidateIDs(cands []roundtable.Candidate) []string {
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i] = c.ID
	}
	return ids
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
