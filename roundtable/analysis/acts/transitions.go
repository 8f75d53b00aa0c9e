package acts

import (
	"fmt"
	"slices"
)

// Start and End are the pseudo-acts before a table's first round and
// after its last.
const (
	Start = "Start"
	End   = "End"
)

// Tagged is one message's acts, with who said it in which round.
type Tagged struct {
	Speaker string
	Round   int
	Acts    []string
}

// Dialogue is one table as the transition graph sees it.
type Dialogue struct {
	// Speakers are the table's participants; nil means the speakers of
	// Messages. Each holds Start before round 1 and End after the last.
	Speakers []string
	// Rounds is the number of rounds played; 0 means the highest round of
	// Messages.
	Rounds int
	// Messages are the labelled messages.
	Messages []Tagged
}

// Counting says how a transition from round r-1 to round r is counted.
type Counting int

const (
	// SpeakerPairs is the RoundTable paper's Eq. 1 (appendix C.6;
	// docs/protocol.md#transitions), the default. DA(i, r) is
	// the set of acts of participant i's messages in round r, DA(i, 0) =
	// {Start} and DA(i, last+1) = {End} for every participant. A step
	// counts |{(i, j != i): A in DA(i, r-1), B in DA(j, r)}| towards A->B
	// and |{i: A in DA(i, r-1)}| towards A, so one A followed by B from two
	// others counts twice, and p(A->B) may exceed 1 (up to N-1).
	SpeakerPairs Counting = iota
	// Occurrences is the project's earlier rule, kept as an option: every
	// act of every message in round r-1 is an occurrence and counts once
	// towards A->B when at least one message of round r by someone else
	// has B, so p(A->B) is the share of A's occurrences followed by B.
	// Start and End are one occurrence each per table, by nobody.
	Occurrences
)

// String is the option's name: "speaker-pairs" or "occurrences".
func (c Counting) String() string {
	if c == Occurrences {
		return "occurrences"
	}
	return "speaker-pairs"
}

// ParseCounting reads a Counting from its name.
func ParseCounting(s string) (Counting, error) {
	switch s {
	case "speaker-pairs":
		return SpeakerPairs, nil
	case "occurrences":
		return Occurrences, nil
	}
	return SpeakerPairs, fmt.Errorf("%q is not speaker-pairs or occurrences", s)
}

// Graph holds the counts of a transition graph: p(A->B) = Next[A][B] /
// Count[A]. Graphs of several tables add up with Add.
type Graph struct {
	Count map[string]int            // the denominator of A
	Next  map[string]map[string]int // the numerator of A->B
}

// NewGraph is an empty graph.
func NewGraph() Graph {
	return Graph{Count: map[string]int{}, Next: map[string]map[string]int{}}
}

// Transitions builds the graph of one table counted by c: the sum of its
// Steps.
func (c Counting) Transitions(d Dialogue) Graph {
	g := NewGraph()
	for _, s := range c.Steps(d) {
		g.Add(s)
	}
	return g
}

// Steps are the table's transitions round by round: entry r-1 counts the
// step from round r-1 to round r, for r = 1 (from Start) to the last
// round + 1 (to End). A dialogue without rounds has none.
func (c Counting) Steps(d Dialogue) []Graph {
	last := d.Rounds
	for _, m := range d.Messages {
		last = max(last, m.Round)
	}
	if last == 0 {
		return nil
	}
	rounds := make([][]Tagged, last+2)
	for _, m := range d.Messages {
		if m.Round >= 1 {
			rounds[m.Round] = append(rounds[m.Round], m)
		}
	}
	if c == Occurrences {
		rounds[0] = []Tagged{{Acts: []string{Start}}}
		rounds[last+1] = []Tagged{{Acts: []string{End}}}
		return occurrenceSteps(rounds)
	}
	return pairSteps(rounds, speakers(d))
}

func speakers(d Dialogue) []string {
	if d.Speakers != nil {
		return d.Speakers
	}
	var out []string
	for _, m := range d.Messages {
		if !slices.Contains(out, m.Speaker) {
			out = append(out, m.Speaker)
		}
	}
	return out
}

// pairSteps counts Eq. 1: rounds[0] and rounds[last+1] are empty and
// stand for Start and End of every speaker.
func pairSteps(rounds [][]Tagged, who []string) []Graph {
	held := make([]map[string][]string, len(rounds)) // round -> speaker -> DA(i, r)
	for r := range rounds {
		held[r] = map[string][]string{}
		for _, s := range who {
			switch r {
			case 0:
				held[r][s] = []string{Start}
			case len(rounds) - 1:
				held[r][s] = []string{End}
			}
		}
		for _, m := range rounds[r] {
			for _, a := range m.Acts {
				if !slices.Contains(held[r][m.Speaker], a) {
					held[r][m.Speaker] = append(held[r][m.Speaker], a)
				}
			}
		}
	}
	steps := make([]Graph, len(rounds)-1)
	for r := 1; r < len(rounds); r++ {
		g := NewGraph()
		for i, before := range held[r-1] {
			for _, a := range before {
				g.Count[a]++
				for j, after := range held[r] {
					if j == i {
						continue
					}
					for _, b := range after {
						g.add(a, b, 1)
					}
				}
			}
		}
		steps[r-1] = g
	}
	return steps
}

// occurrenceSteps counts the earlier rule: rounds[0] holds Start and
// rounds[last+1] End, each as one message by nobody.
func occurrenceSteps(rounds [][]Tagged) []Graph {
	steps := make([]Graph, len(rounds)-1)
	for r := 1; r < len(rounds); r++ {
		g := NewGraph()
		for _, m := range rounds[r-1] {
			next := followers(rounds[r], m.Speaker)
			for _, a := range m.Acts {
				g.Count[a]++
				for _, b := range next {
					g.add(a, b, 1)
				}
			}
		}
		steps[r-1] = g
	}
	return steps
}

// followers are the distinct acts of next's messages by speakers other
// than speaker (a message by nobody follows and is followed by everyone).
func followers(next []Tagged, speaker string) []string {
	var out []string
	for _, m := range next {
		if m.Speaker == speaker && m.Speaker != "" {
			continue
		}
		for _, b := range m.Acts {
			if !slices.Contains(out, b) {
				out = append(out, b)
			}
		}
	}
	return out
}

func (g Graph) add(a, b string, n int) {
	if g.Next[a] == nil {
		g.Next[a] = map[string]int{}
	}
	g.Next[a][b] += n
}

// Add folds o's counts into g (which must have been made by NewGraph or
// Transitions).
func (g Graph) Add(o Graph) {
	for a, n := range o.Count {
		g.Count[a] += n
	}
	for a, bs := range o.Next {
		for b, n := range bs {
			g.add(a, b, n)
		}
	}
}

// P is p(A->B); 0 when A never occurred.
func (g Graph) P(a, b string) float64 {
	if g.Count[a] == 0 {
		return 0
	}
	return float64(g.Next[a][b]) / float64(g.Count[a])
}
