package vote

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
)

// Score bounds for rated ballots.
const (
	MinScore = 1
	MaxScore = 5
)

// Ballot is one voter's ballot; which field counts depends on the rule (see
// Rule.Format). A ballot must fill exactly the field its rule reads: a
// ballot that also fills another field is invalid. Empty maps and lists count
// as absent, matching the omitempty JSON tags; so an approval ballot with no
// field at all is valid and approves nobody.
type Ballot struct {
	Voter   string         `json:"voter"`
	Abstain bool           `json:"abstain,omitempty"`
	Choice  string         `json:"choice,omitempty"`  // unanimous, majority, plurality
	Scores  map[string]int `json:"scores,omitempty"`  // rated: 1..5 for every candidate
	Ranking []string       `json:"ranking,omitempty"` // ranked and irv (a prefix is allowed), borda (full order)
	Points  map[string]int `json:"points,omitempty"`  // cumulative: non-negative, sum <= len(candidates)
	Approve []string       `json:"approve,omitempty"` // approval: a set of candidates
	// Reason is the voter's explanation of the ballot, if it gave one
	// (RoundTable's agents are asked for one). It is no part of the vote:
	// the rules never read it, and it is sealed and shown with the ballot.
	Reason string `json:"reason,omitempty"`
}

// candidateSet is the candidate list with a name-to-position index.
type candidateSet struct {
	names []string
	index map[string]int
}

func newCandidateSet(names []string) candidateSet {
	index := make(map[string]int, len(names))
	for i, c := range names {
		if _, dup := index[c]; !dup {
			index[c] = i
		}
	}
	return candidateSet{names: names, index: index}
}

// Check reports whether b is a valid ballot under r for the given candidates.
// The error message is meant for the voter, e.g. "score 6 for B is out of
// range 1..5" or `unknown candidate "Z"`. An abstaining ballot is valid if it
// carries no vote.
func (r Rule) Check(b Ballot, candidates []string) error {
	return r.check(b, newCandidateSet(candidates))
}

func (r Rule) check(b Ballot, cs candidateSet) error {
	spec, ok := lookup(r)
	if !ok {
		return unknownRule(string(r))
	}
	if strings.TrimSpace(b.Voter) == "" {
		return errors.New("ballot has no voter name")
	}
	if b.Abstain {
		if f, ok := b.firstOther(""); ok {
			return fmt.Errorf("an abstaining ballot must not also carry %s", fieldNoun(f))
		}
		return nil
	}
	if err := checkFields(spec, b); err != nil {
		return err
	}
	return checkContent(spec, b, cs)
}

// has reports whether b fills the field of format f.
func (b Ballot) has(f BallotFormat) bool {
	switch f {
	case FormatChoice:
		return b.Choice != ""
	case FormatScores:
		return len(b.Scores) > 0
	case FormatRanking:
		return len(b.Ranking) > 0
	case FormatPoints:
		return len(b.Points) > 0
	case FormatApprove:
		return len(b.Approve) > 0
	}
	return false
}

// firstOther returns the first field b fills other than own.
func (b Ballot) firstOther(own BallotFormat) (BallotFormat, bool) {
	for _, f := range [...]BallotFormat{FormatChoice, FormatScores, FormatRanking, FormatPoints, FormatApprove} {
		if f != own && b.has(f) {
			return f, true
		}
	}
	return "", false
}

// checkFields requires the rule's own field and no other. An approval
// ballot without a list approves nobody.
func checkFields(spec ruleSpec, b Ballot) error {
	own := b.has(spec.format)
	other, extra := b.firstOther(spec.format)
	switch {
	case own && extra:
		return fmt.Errorf("unexpected %s on a %s ballot", other, spec.rule)
	case own, spec.format == FormatApprove && !extra:
		return nil
	case extra:
		return fmt.Errorf("%s ballots need %s, not %s", spec.rule, fieldNoun(spec.format), fieldNoun(other))
	default:
		return fmt.Errorf("%s ballots need %s", spec.rule, fieldNoun(spec.format))
	}
}

// fieldNoun names a ballot field with its article.
func fieldNoun(f BallotFormat) string {
	switch f {
	case FormatChoice:
		return "a choice"
	case FormatRanking:
		return "a ranking"
	case FormatApprove:
		return "an approve list"
	default:
		return string(f)
	}
}

// checkContent validates the rule's field once it is known to be present.
func checkContent(spec ruleSpec, b Ballot, cs candidateSet) error {
	switch spec.format {
	case FormatChoice:
		return cs.known(b.Choice)
	case FormatScores:
		return checkScores(b.Scores, cs)
	case FormatRanking:
		return checkRanking(b.Ranking, cs, spec.rule == Borda)
	case FormatPoints:
		return checkPoints(b.Points, cs)
	default:
		return checkList(b.Approve, cs, "approved")
	}
}

func (cs candidateSet) known(c string) error {
	if _, ok := cs.index[c]; !ok {
		return fmt.Errorf("unknown candidate %q", c)
	}
	return nil
}

// knownKeys checks map keys; it reports the first unknown key in sorted
// order, so the message is deterministic.
func (cs candidateSet) knownKeys(m map[string]int) error {
	allKnown := true
	for c := range m {
		_, ok := cs.index[c]
		allKnown = allKnown && ok
	}
	if allKnown {
		return nil
	}
	for _, c := range sortedKeys(m) {
		if err := cs.known(c); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func checkScores(scores map[string]int, cs candidateSet) error {
	if err := cs.knownKeys(scores); err != nil {
		return err
	}
	for _, c := range cs.names {
		s, ok := scores[c]
		if !ok {
			return fmt.Errorf("missing score for %s", c)
		}
		if s < MinScore || s > MaxScore {
			return fmt.Errorf("score %d for %s is out of range %d..%d", s, c, MinScore, MaxScore)
		}
	}
	return nil
}

// checkRanking rejects unknown and repeated candidates; full also requires
// every candidate.
func checkRanking(ranking []string, cs candidateSet, full bool) error {
	if err := checkList(ranking, cs, "ranked"); err != nil {
		return err
	}
	if !full || len(ranking) == len(cs.names) {
		return nil
	}
	for _, c := range cs.names {
		if !slices.Contains(ranking, c) {
			return fmt.Errorf("borda ranking is missing %s: order all %d candidates", c, len(cs.names))
		}
	}
	return nil
}

// checkList rejects unknown and repeated candidates in a list.
func checkList(list []string, cs candidateSet, verb string) error {
	seen := make([]bool, len(cs.names))
	for _, c := range list {
		i, ok := cs.index[c]
		if !ok {
			return fmt.Errorf("unknown candidate %q", c)
		}
		if seen[i] {
			return fmt.Errorf("candidate %s %s twice", c, verb)
		}
		seen[i] = true
	}
	return nil
}

// checkPoints enforces non-negative points within a budget of one point per
// candidate, without overflowing on hostile values.
func checkPoints(points map[string]int, cs candidateSet) error {
	if err := cs.knownKeys(points); err != nil {
		return err
	}
	budget := len(cs.names)
	total, overflow := 0, false
	for _, c := range cs.names {
		p := points[c]
		if p < 0 {
			return fmt.Errorf("negative points for %s", c)
		}
		overflow = overflow || total > math.MaxInt-p
		total += p
	}
	if overflow || total > budget {
		return fmt.Errorf("points total %s exceeds the budget of %d", exactSum(points), budget)
	}
	return nil
}

// exactSum adds map values without overflow, for error messages.
func exactSum(m map[string]int) string {
	sum := new(big.Int)
	for _, v := range m {
		sum.Add(sum, big.NewInt(int64(v)))
	}
	return sum.String()
}
