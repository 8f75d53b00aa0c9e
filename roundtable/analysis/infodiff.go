package analysis

import (
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
)

// InfoDiffLog is the information difference of each round of a table's
// log (docs/protocol.md#information-difference): all messages are embedded in one
// call (so that a hashed TF-IDF shares its document frequencies across
// the table), then each round's messages are compared with the centroid
// of the previous round's. Entry r-1 is round r, up to the last round
// that has a message; the first round, a round without messages and one
// after such a round have none (OK false).
func InfoDiffLog(ctx context.Context, events []roundtable.Event, e embed.Embedder) ([]embed.RoundDiff, error) {
	var texts []string
	var rounds []int
	last := 0
	for _, ev := range events {
		if m, ok := ev.Data.(roundtable.MessagePosted); ok && m.Round > 0 {
			texts, rounds = append(texts, m.Text), append(rounds, m.Round)
			last = max(last, m.Round)
		}
	}
	if len(texts) == 0 {
		return nil, nil
	}
	vs, err := e.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("information difference: embed with %s: %w", e.Model(), err)
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("information difference: %s returned %d vectors for %d messages", e.Model(), len(vs), len(texts))
	}
	byRound := make([][][]float64, last)
	for i, v := range vs {
		byRound[rounds[i]-1] = append(byRound[rounds[i]-1], v)
	}
	return embed.Rounds(byRound)
}
