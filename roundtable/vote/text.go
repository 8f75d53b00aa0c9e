package vote

import (
	"fmt"
	"sort"
	"strings"
)

// String writes the ballot as people read and type it: "abstain", "B",
// "C > A > B", "A=5 B=2", "approve A C" ("approve none" for an empty
// approval ballot).
func (b Ballot) String() string {
	switch {
	case b.Abstain:
		return "abstain"
	case b.Choice != "":
		return b.Choice
	case b.Ranking != nil:
		return strings.Join(b.Ranking, " > ")
	case b.Scores != nil:
		return pairs(b.Scores)
	case b.Points != nil:
		return pairs(b.Points)
	case len(b.Approve) == 0:
		return "approve none"
	}
	return "approve " + strings.Join(b.Approve, " ")
}

func pairs(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return strings.Join(out, " ")
}
