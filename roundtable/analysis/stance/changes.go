package stance

import (
	"fmt"
	"strconv"
)

// Changes tallies unwarranted opinion changes the way Conversational bias
// counts them: every classified message of every participant against the
// stance it was assigned, with the direction of each change and the
// level-to-level matrix. The same tally serves the chatroom, the dyads and
// the live audit (docs/protocol.md#stance).
type Changes struct {
	Classified int // messages classified, with an opinion or without
	Opinions   int // those that express an opinion
	Changed    int // opinions at a level other than the assigned one
	// TowardStatement and TowardComplement split Changed by direction: a
	// level above the assigned one moved toward the statement's pole (2;
	// the liberal pole of the paper's chats), below toward the
	// complement's (-2).
	TowardStatement, TowardComplement int
	// Matrix[a+2][c+2] counts the opinions of participants assigned level
	// a that were classified at level c; off its diagonal are the changes.
	Matrix [5][5]int
}

// Add tallies one classified message of a participant assigned level
// assigned: presence says whether it expresses an opinion, classified
// which. It returns the direction of the change: +1 toward the statement,
// -1 toward the complement, 0 for none (or no opinion).
func (c *Changes) Add(assigned, classified Level, presence bool) int {
	c.Classified++
	if !presence {
		return 0
	}
	c.Opinions++
	if in(assigned) && in(classified) {
		c.Matrix[assigned+2][classified+2]++
	}
	d := Direction(assigned, classified)
	switch d {
	case 1:
		c.TowardStatement++
	case -1:
		c.TowardComplement++
	}
	if d != 0 {
		c.Changed++
	}
	return d
}

// Merge adds o's counts to c.
func (c *Changes) Merge(o Changes) {
	c.Classified += o.Classified
	c.Opinions += o.Opinions
	c.Changed += o.Changed
	c.TowardStatement += o.TowardStatement
	c.TowardComplement += o.TowardComplement
	for a := range c.Matrix {
		for b := range c.Matrix[a] {
			c.Matrix[a][b] += o.Matrix[a][b]
		}
	}
}

// Direction is the direction of a change from assigned to classified: +1
// toward the statement's pole, -1 toward the complement's, 0 for none.
func Direction(assigned, classified Level) int {
	switch {
	case classified > assigned:
		return 1
	case classified < assigned:
		return -1
	}
	return 0
}

func in(l Level) bool { return l >= StronglyComplement && l <= StronglyStatement }

// MatrixKey names a cell of the matrix as a measure: "matrix/2->1" counts
// participants assigned 2 read at 1.
func MatrixKey(assigned, classified Level) string {
	return fmt.Sprintf("matrix/%d->%d", assigned, classified)
}

// Scalars are c's counts as named measures: classified_messages,
// opinion_messages, changes, changes_toward_statement,
// changes_toward_complement and every non-empty MatrixKey.
func (c Changes) Scalars() map[string]float64 {
	out := map[string]float64{"classified_messages": float64(c.Classified), "opinion_messages": float64(c.Opinions),
		"changes": float64(c.Changed), "changes_toward_statement": float64(c.TowardStatement), "changes_toward_complement": float64(c.TowardComplement)}
	for a := StronglyComplement; a <= StronglyStatement; a++ {
		for b := StronglyComplement; b <= StronglyStatement; b++ {
			if n := c.Matrix[a+2][b+2]; n > 0 {
				out[MatrixKey(a, b)] = float64(n)
			}
		}
	}
	return out
}

// MatrixRows are the matrix as CSV rows under a header: assigned,
// classified, messages, with the label of each level; every cell, empty
// ones included, statement's pole first.
func (c Changes) MatrixRows(prefix ...string) [][]string {
	var rows [][]string
	for a := StronglyStatement; a >= StronglyComplement; a-- {
		for b := StronglyStatement; b >= StronglyComplement; b-- {
			row := append(append([]string{}, prefix...), strconv.Itoa(int(a)), a.Label(), strconv.Itoa(int(b)), b.Label(), strconv.Itoa(c.Matrix[a+2][b+2]))
			rows = append(rows, row)
		}
	}
	return rows
}

// MatrixHead is the header of MatrixRows after the prefix columns.
func MatrixHead() []string {
	return []string{"assigned", "assigned_label", "classified", "classified_label", "messages"}
}
