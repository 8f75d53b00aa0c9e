package vote

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
)

// Options tune a tally; the zero value is the paper's behaviour.
type Options struct {
	Tie  TiePolicy // "" means TieDefer
	Seed int64     // seeds TieRandom
	// Quorum is how many participants must cast a valid ballot, an
	// abstention included (it shows presence), for the vote to decide;
	// below it there is no winner, whatever the totals. 0 means none.
	Quorum int
}

// Rejection is an invalid ballot and the reason shown to its voter.
type Rejection struct {
	Voter  string `json:"voter"`
	Reason string `json:"reason"`
}

// Result is the outcome of a tally.
type Result struct {
	Rule   Rule
	Winner string // "" means no winner
	// Totals has every candidate's exact total. Under instant runoff it is
	// the number of votes the candidate held in the last round it took part in.
	Totals map[string]*big.Rat
	// Tied is the tied-for-first set, in candidate order, when a tie decided
	// (or deferred) the outcome; nil otherwise.
	Tied []string
	// Ranking lists all candidates best first: by total, ties in candidate
	// order (instant runoff: by how long they survived, then by total).
	Ranking    []string
	Rejected   []Rejection // invalid ballots, in ballot order
	Counted    int         // ballots that voted (one per voter)
	Abstained  int         // voters whose counted ballot abstains
	Superseded int         // valid ballots replaced by a later valid ballot of the same voter
	Reason     string      // why there is no winner, or how it was won
	Rounds     []Round     // instant runoff only: the counting rounds
}

// Round is one counting round of instant-runoff voting.
type Round struct {
	// Votes holds each continuing candidate's votes this round.
	Votes map[string]int `json:"votes"`
	// Exhausted counts ballots with no continuing candidate left.
	Exhausted int `json:"exhausted"`
	// Eliminated lists, in candidate order, who was eliminated after this
	// round; it is empty in the last round.
	Eliminated []string `json:"eliminated"`
}

// election is the state of one tally, shared by the rule counters.
type election struct {
	spec      ruleSpec
	cands     candidateSet
	ballots   []Ballot // counted, valid, not abstaining
	n         int      // participants
	incumbent string
	opt       Options
	res       Result
}

// Tally applies rule to p. It fails only for an unknown rule or tie policy or
// a malformed profile (see Profile.Validate); invalid ballots are not errors,
// they are listed in Result.Rejected and not counted.
func Tally(rule Rule, p Profile, opt Options) (Result, error) {
	spec, ok := lookup(rule)
	if !ok {
		return Result{}, fmt.Errorf("tally: %w", unknownRule(string(rule)))
	}
	tie, err := ParseTiePolicy(string(opt.Tie))
	if err != nil {
		return Result{}, fmt.Errorf("tally: %w", err)
	}
	if err := p.Validate(); err != nil {
		return Result{}, fmt.Errorf("tally: %w", err)
	}
	e := &election{
		spec:      spec,
		cands:     newCandidateSet(p.Candidates),
		incumbent: p.Incumbent,
		opt:       Options{Tie: tie, Seed: opt.Seed, Quorum: opt.Quorum},
		res:       Result{Rule: rule},
	}
	e.n = max(p.Participants, e.collect(p.Ballots))
	if len(e.ballots) == 0 {
		e.res.Reason = "no votes were counted"
	}
	spec.count(e)
	e.applyQuorum()
	return e.res, nil
}

// applyQuorum withdraws the outcome of a vote that too few took part in.
func (e *election) applyQuorum() {
	present := e.res.Counted + e.res.Abstained
	if e.opt.Quorum <= 0 || present >= e.opt.Quorum {
		return
	}
	e.res.Winner, e.res.Tied = "", nil
	e.res.Reason = fmt.Sprintf("quorum not met: %d of the %d ballots required were cast", present, e.opt.Quorum)
}

// collect validates the ballots, keeps each voter's last valid one and
// returns the number of distinct non-blank voters.
func (e *election) collect(ballots []Ballot) (voters int) {
	last := make(map[string]int, len(ballots)) // voter -> last valid ballot, or -1
	for i, b := range ballots {
		prev, seen := last[b.Voter]
		err := e.spec.rule.check(b, e.cands)
		switch {
		case err != nil:
			e.res.Rejected = append(e.res.Rejected, Rejection{Voter: b.Voter, Reason: err.Error()})
			if !seen && strings.TrimSpace(b.Voter) != "" {
				last[b.Voter] = -1
			}
			continue
		case prev >= 0 && seen:
			e.res.Superseded++
		}
		last[b.Voter] = i
	}
	e.ballots = make([]Ballot, 0, len(last))
	for i, b := range ballots {
		switch j, ok := last[b.Voter]; {
		case !ok || j != i:
		case b.Abstain:
			e.res.Abstained++
		default:
			e.ballots = append(e.ballots, b)
		}
	}
	e.res.Counted = len(e.ballots)
	return len(last)
}

// setTotals records exact totals and ranks the candidates by them.
func (e *election) setTotals(tot []*big.Rat) {
	e.res.Totals = make(map[string]*big.Rat, len(tot))
	for i, t := range tot {
		e.res.Totals[e.cands.names[i]] = t
	}
	order := make([]int, len(tot))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return tot[b].Cmp(tot[a]) })
	e.res.Ranking = e.cands.pick(order)
}

// win makes the candidate at position i the winner.
func (e *election) win(i int, reason string) {
	e.res.Winner = e.cands.names[i]
	e.res.Reason = reason
}

// pick returns the names at the given positions.
func (cs candidateSet) pick(positions []int) []string {
	names := make([]string, len(positions))
	for k, i := range positions {
		names[k] = cs.names[i]
	}
	return names
}
