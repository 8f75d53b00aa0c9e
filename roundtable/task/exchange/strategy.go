package exchange

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
)

// Strategy is the decision logic of a rule-based "utility agent": a
// participant that needs no language model. It is deterministic given Seed.
// The package comment describes the strategy.
type Strategy struct {
	// Economy is used only for K, Supply and the agent's own Theta row: the
	// agent learns other agents' weights from their messages, as a person
	// would.
	Economy *Economy
	Self    int   // the agent's 0-based index; must be in [0, K)
	Seed    int64 // varies the small jitter and the concession speed
	// Name is the name the agent is shown with; "" is "Agent <Self+1>".
	Name string
}

// Tuning of the strategy; see the package comment.
const (
	weightScale    = 1e4  // statements give weights to 4 decimals
	greed          = 0.7  // round-1 share of the way from 1/K to all of a good
	greedJitter    = 0.05 // +- on greed, per round
	shareJitter    = 0.02 // +- on each kept share, per good and round
	consensusFloor = 0.15 // part of every good shared equally in the consensus
	minHorizon     = 0.2  // fastest concession, as a fraction of the rounds
	maxHorizon     = 1.1  // slowest concession
)

// publicWeights are the agent's weights rounded as its Statement states them,
// so that every agent computes the consensus from the same numbers.
func (s Strategy) publicWeights() []float64 {
	w := make([]float64, s.Economy.K)
	for k, x := range s.Economy.Theta[s.Self] {
		w[k] = math.Round(x*weightScale) / weightScale
	}
	return w
}

// Statement is the agent's message for a round: its preferences in words and
// then, for ParseStatement, "My weights: good 1 = 0.1, good 2 = 0.8, ...".
func (s Strategy) Statement(round int) string {
	w := s.publicWeights()
	var b strings.Builder
	name := s.Name
	if name == "" {
		name = fmt.Sprintf("Agent %d", s.Self+1)
	}
	fmt.Fprintf(&b, "%s here. ", name)
	top, rest := splitTop(w)
	if len(rest) == 0 {
		b.WriteString("I value every good equally. ")
	} else {
		fmt.Fprintf(&b, "I care most about %s (weight %s%s); %s matter less to me. ",
			goodList(top), num(w[top[0]]), each(top), goodList(rest))
	}
	b.WriteString("My weights: ")
	for k, x := range w {
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "good %d = %s", k+1, num(x))
	}
	b.WriteString(".")
	if round > 1 {
		b.WriteString(" I am moving toward a split that gives each good mostly to whoever values it most.")
	}
	return b.String()
}

// splitTop returns the indices of the largest weights and of the others.
func splitTop(w []float64) (top, rest []int) {
	hi := math.Inf(-1)
	for _, x := range w {
		hi = math.Max(hi, x)
	}
	for k, x := range w {
		if x == hi {
			top = append(top, k)
		} else {
			rest = append(rest, k)
		}
	}
	return top, rest
}

// goodList writes "good 2", "goods 1 and 3" or "goods 1, 3 and 4".
func goodList(ks []int) string {
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = strconv.Itoa(k + 1)
	}
	if len(names) == 1 {
		return "good " + names[0]
	}
	return "goods " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func each(ks []int) string {
	if len(ks) > 1 {
		return " each"
	}
	return ""
}

var weightPattern = regexp.MustCompile(`(?i)\bgood\s*#?(\d+)\s*[=:]\s*([0-9]*\.?[0-9]+(?:e[-+]?[0-9]+)?)`)

// ParseStatement reads the weights out of another agent's message: the first
// "good N = W" (or "good N: W") for each of the k goods, N 1-based. It
// reports false unless every good has a finite non-negative weight and the
// weights are not all zero.
func ParseStatement(text string, k int) (weights []float64, ok bool) {
	if k < 1 {
		return nil, false
	}
	weights = make([]float64, k)
	seen := make([]bool, k)
	found, sum := 0, 0.0
	for _, m := range weightPattern.FindAllStringSubmatch(text, -1) {
		n, err := strconv.Atoi(m[1])
		if err != nil || n < 1 || n > k || seen[n-1] {
			continue
		}
		x, err := strconv.ParseFloat(m[2], 64)
		if err != nil || math.IsInf(x, 0) {
			return nil, false
		}
		weights[n-1], seen[n-1] = x, true
		found++
		sum += x
	}
	if found != k || !(sum > 0) {
		return nil, false
	}
	return weights, true
}

// Propose is the agent's proposal in round (1-based) of rounds. known holds
// the weights learned from other agents' messages (0-based index); agents
// missing from it are assumed to weight all goods equally. decision is the
// decision in force, nil if none. The result always passes Validate.
func (s Strategy) Propose(round, rounds int, known map[int][]float64, decision Allocation) Allocation {
	e := s.Economy
	target := consensus(s.weights(known), e.Supply)
	t := s.concession(round, rounds)
	p := target
	if t < 1 {
		rng := s.rng(uint64(round))
		p = mix(s.anchor(target, rng), target, t)
	}
	p = roundCents(p, e.Supply)
	if decision != nil && e.Validate(decision) == nil && e.Utility(s.Self, decision) >= e.Utility(s.Self, p) {
		return decision.Clone()
	}
	return p
}

// rng is the agent's deterministic stream for a round (0 = the whole table).
func (s Strategy) rng(round uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(s.Seed), uint64(s.Self)<<32|round))
}

// concession is how far (0..1) the agent has moved from its opening toward
// the consensus. Each agent concedes linearly and reaches the consensus after
// a horizon drawn once per table between minHorizon and maxHorizon of the
// rounds, so agents differ in stubbornness.
func (s Strategy) concession(round, rounds int) float64 {
	if rounds < 2 {
		rounds = 2
	}
	u := s.rng(0).Float64()
	horizon := float64(rounds) * (minHorizon + (maxHorizon-minHorizon)*u)
	return math.Min(1, math.Max(0, float64(round-1)/horizon))
}

// weights is the agent's picture of everyone's weights: its own public row,
// rows learned from messages, uniform rows for the rest; each row normalized
// to sum 1.
func (s Strategy) weights(known map[int][]float64) [][]float64 {
	k := s.Economy.K
	w := make([][]float64, k)
	for i := range w {
		row, ok := known[i]
		switch {
		case i == s.Self:
			row = s.publicWeights()
		case !ok || !usable(row, k):
			row = make([]float64, k)
			for g := range row {
				row[g] = 1
			}
		}
		w[i] = normalized(row)
	}
	return w
}

func usable(row []float64, k int) bool {
	if len(row) != k {
		return false
	}
	sum := 0.0
	for _, x := range row {
		if !(x >= 0) || math.IsInf(x, 0) {
			return false
		}
		sum += x
	}
	return sum > 0
}

func normalized(row []float64) []float64 {
	sum := 0.0
	for _, x := range row {
		sum += x
	}
	out := make([]float64, len(row))
	for g, x := range row {
		out[g] = x / sum
	}
	return out
}
