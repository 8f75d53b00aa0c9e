package vote

import (
	"fmt"
	"strings"
)

// Rule names a social-choice rule.
type Rule string

// The rules, in the order Rules returns them.
const (
	Unanimous     Rule = "unanimous"
	Majority      Rule = "majority"
	Plurality     Rule = "plurality"
	Rated         Rule = "rated"
	Ranked        Rule = "ranked"
	Cumulative    Rule = "cumulative"
	Borda         Rule = "borda"
	Approval      Rule = "approval"
	InstantRunoff Rule = "irv"
	Copeland      Rule = "copeland"
	Schulze       Rule = "schulze"
)

// BallotFormat names the Ballot field a rule reads.
type BallotFormat string

// The ballot formats; each is the JSON name of the Ballot field it reads.
const (
	FormatChoice  BallotFormat = "choice"
	FormatScores  BallotFormat = "scores"
	FormatRanking BallotFormat = "ranking"
	FormatPoints  BallotFormat = "points"
	FormatApprove BallotFormat = "approve"
)

// tieSentence ends the description of every rule that can tie.
const tieSentence = " A tie for first is settled by the table's tie policy; by default it gives no winner."

// ruleSpec is one row of the rule table.
type ruleSpec struct {
	rule     Rule
	format   BallotFormat
	unit     string // what a total counts, singular, for reasons
	describe string
	count    func(*election)
}

// ruleTable lists every rule in Rules order.
var ruleTable = [...]ruleSpec{
	{Unanimous, FormatChoice, "vote",
		"Unanimous: choose one candidate, or abstain. A candidate wins only if every one of the table's participants chooses it; a single abstention, missing or invalid ballot, or different choice means no decision this round.",
		countUnanimous},
	{Majority, FormatChoice, "vote",
		"Majority: choose one candidate, or abstain. A candidate wins if it is chosen by more than half of all the table's participants (not just of those who voted), so abstentions and missing ballots count against every candidate; otherwise there is no decision.",
		countMajority},
	{Plurality, FormatChoice, "vote",
		"Plurality: choose one candidate, or abstain. The candidate with the most votes wins; if nobody votes there is no decision." + tieSentence,
		countPlurality},
	{Rated, FormatScores, "point",
		"Rated: give every candidate a whole-number score from 1 (worst) to 5 (best); a ballot that leaves a candidate out is invalid. The candidate with the highest total score wins." + tieSentence,
		countRated},
	{Ranked, FormatRanking, "point",
		"Ranked: list candidates from best to worst; you may stop after your favourites, and unlisted candidates get nothing. Your 1st choice gets 1 point, your 2nd 1/2, your 3rd 1/3 and so on. The candidate with the highest total wins." + tieSentence,
		countRanked},
	{Cumulative, FormatPoints, "point",
		"Cumulative: you have as many points as there are candidates; give each candidate a whole, non-negative number of points, in total at most your budget (you may put them all on one candidate). The candidate with the highest total wins; if nobody gave any points there is no decision." + tieSentence,
		countCumulative},
	{Borda, FormatRanking, "point",
		"Borda: order all n candidates from best to worst, each exactly once. Your top choice gets n points, the next n-1, down to 1 for your last. Candidates are ranked by their totals and the top one wins." + tieSentence,
		countBorda},
	{Approval, FormatApprove, "approval",
		"Approval: list every candidate you find acceptable (any number, including none). The candidate approved by the most voters wins; if nobody approved anyone there is no decision." + tieSentence,
		countApproval},
	{InstantRunoff, FormatRanking, "vote",
		"Instant runoff: list candidates from best to worst; you may stop after your favourites. In each round every ballot counts for its highest-listed candidate still in the race. A candidate with more than half of those ballots wins; otherwise the candidate with the fewest votes is eliminated (all candidates tied for fewest are eliminated together) and its ballots pass to their next choice, while ballots with no choice left drop out. If every remaining candidate is tied, it is a tie for first." + tieSentence,
		countIRV},
	{Copeland, FormatRanking, "point",
		"Copeland: list candidates from best to worst; you may stop after your favourites (unlisted candidates rank below listed ones, level with each other). Every pair of candidates is compared: a candidate beats another if more ballots rank it higher. A candidate scores 1 point per opponent it beats and 1/2 per opponent it ties; the highest score wins." + tieSentence,
		countCopeland},
	{Schulze, FormatRanking, "opponent",
		"Schulze: list candidates from best to worst; you may stop after your favourites (unlisted candidates rank below listed ones, level with each other). Every pair is compared head to head; a candidate beats another by strongest path when its strongest chain of head-to-head wins (measured by its weakest win, in winning votes) is stronger than the reverse chain. The candidate that no other beats this way wins." + tieSentence,
		countSchulze},
}

// Rules returns every rule, in a fixed order.
func Rules() []Rule {
	rules := make([]Rule, len(ruleTable))
	for i, s := range ruleTable {
		rules[i] = s.rule
	}
	return rules
}

// ParseRule returns the rule named s, ignoring case and surrounding space;
// "instant-runoff" is accepted for InstantRunoff.
func ParseRule(s string) (Rule, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if name == "instant-runoff" {
		return InstantRunoff, nil
	}
	if _, ok := lookup(Rule(name)); ok {
		return Rule(name), nil
	}
	return "", unknownRule(s)
}

// Format reports which ballot field r reads, or "" for an unknown rule.
func (r Rule) Format() BallotFormat {
	s, _ := lookup(r)
	return s.format
}

// Describe explains in one plain-English paragraph how to vote under r and
// how the winner is chosen, for prompts and user interfaces.
func (r Rule) Describe() string {
	s, ok := lookup(r)
	if !ok {
		return fmt.Sprintf("Unknown rule %q.", string(r))
	}
	return s.describe
}

// lookup finds r in the rule table.
func lookup(r Rule) (ruleSpec, bool) {
	for _, s := range ruleTable {
		if s.rule == r {
			return s, true
		}
	}
	return ruleSpec{}, false
}

// unknownRule is the error for a rule name not in the table.
func unknownRule(s string) error {
	names := make([]string, len(ruleTable))
	for i, r := range ruleTable {
		names[i] = string(r.rule)
	}
	return fmt.Errorf("unknown rule %q (valid: %s)", s, strings.Join(names, ", "))
}
