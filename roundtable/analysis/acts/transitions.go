package acts

import "slices"

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

// Graph counts dialogue-act transitions (docs/protocol.md#transitions):
// p(A->B) = |A in round r-1 by i, followed by B in round r by someone else|
// / |A in round r-1|.
//
// Decisions where the definition leaves room: an occurrence is an act of
// one message (a message with two acts holds two occurrences); an
// occurrence of A by i in round r-1 counts once towards A->B when at least
// one message of round r by a speaker other than i has B, so p(A->B) is
// the probability that B follows A; Start is one occurrence by nobody in
// round 0, so over several tables p(Start->B) is the share of tables
// whose first round has B; every occurrence in the last round is followed
// by End, so p(A->End) is the share of A's occurrences in last rounds.
// Graphs of several tables add up with Add.
type Graph struct {
	Count map[string]int            // occurrences of A that have a next round (or End)
	Next  map[string]map[string]int // A -> B -> occurrences of A followed by B
}

// Transitions builds the graph of one table's tagged messages; its last
// round is the highest round of msgs.
func Transitions(msgs []Tagged) Graph {
	g := Graph{Count: map[string]int{}, Next: map[string]map[string]int{}}
	last := 0
	for _, m := range msgs {
		last = max(last, m.Round)
	}
	if last == 0 {
		return g
	}
	byRound := make([][]Tagged, last+2)
	byRound[0] = []Tagged{{Round: 0, Acts: []string{Start}}}
	for _, m := range msgs {
		if m.Round >= 1 {
			byRound[m.Round] = append(byRound[m.Round], m)
		}
	}
	byRound[last+1] = []Tagged{{Round: last + 1, Acts: []string{End}}}
	for r := 0; r <= last; r++ {
		for _, m := range byRound[r] {
			next := Followers(byRound[r+1], m.Speaker)
			for _, a := range m.Acts {
				g.Count[a]++
				for _, b := range next {
					g.add(a, b)
				}
			}
		}
	}
	return g
}

// Followers are the distinct acts of next's messages by speakers other
// than speaker (End follows everyone): the acts that follow speaker's in
// the transition graph, and in the early-stopping pair counts.
func Followers(next []Tagged, speaker string) []string {
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

func (g Graph) add(a, b string) {
	if g.Next[a] == nil {
		g.Next[a] = map[string]int{}
	}
	g.Next[a][b]++
}

// Add folds o's counts into g (which must have been made by Transitions).
func (g Graph) Add(o Graph) {
	for a, n := range o.Count {
		g.Count[a] += n
	}
	for a, bs := range o.Next {
		for b, n := range bs {
			if g.Next[a] == nil {
				g.Next[a] = map[string]int{}
			}
			g.Next[a][b] += n
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
