package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// paperWords are the mean message lengths in words per round of the
// RoundTable paper's Table 8 (3 agents, gpt-4o-mini, majority rule), for
// the exchange economy and the recommendation task.
var paperWords = map[string][10]int{
	"exchange":       {43, 62, 82, 84, 87, 91, 91, 93, 91, 91},
	"recommendation": {67, 85, 93, 99, 101, 103, 105, 105, 106, 105},
}

// words is a deterministic message of n words with sentences.
func words(seed, n int) string {
	vocab := strings.Fields("I propose we keep more of the first good for agent one since it values it most and share the rest evenly " +
		"which raises the total utility while staying fair to everyone who holds the other goods today")
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(vocab[(seed*7+i*3)%len(vocab)])
		if i%12 == 11 {
			b.WriteByte('.')
		}
	}
	return b.String() + "."
}

// paperView is Alice's view at the message phase of round 10 of a
// three-agent table whose messages have the paper's lengths.
func paperView(lengths [10]int) roundtable.View {
	v := view(roundtable.PhaseMessage, vote.Majority)
	v.Participants = people[:3]
	v.History = nil
	for r := 1; r <= 9; r++ {
		rec := roundtable.RoundRecord{Round: r}
		for i, p := range v.Participants {
			rec.Messages = append(rec.Messages, roundtable.Message{From: p.ID, Text: words(r*3+i, lengths[r-1])})
			prop := roundtable.Proposal{Text: fmt.Sprintf("Alice gets %d/10/10, Bob gets 10/%d/10, Carol gets %d/10/%d of goods 1/2/3.", 80-i, 80+i, 10+i, 80-i)}
			rec.Proposals = append(rec.Proposals, roundtable.ProposalRecord{By: p.ID, Proposal: prop})
			rec.Candidates = append(rec.Candidates, roundtable.Candidate{ID: string(rune('A' + i)), Proposal: prop, Proposers: []string{p.ID}})
		}
		rec.Tally = &roundtable.Tally{Rule: vote.Majority, Winner: "A", Totals: map[string]json.Number{"A": "2", "B": "1", "C": "0"}, Counted: 3}
		rec.Decision = &rec.Candidates[0]
		v.History = append(v.History, rec)
	}
	v.Round, v.Rounds = 10, 10
	v.Decision = v.History[8].Decision
	return v
}

// promptBytes is the size of the prompt an agent with opt sends for v.
func promptBytes(tb testing.TB, v roundtable.View, opt Options) int {
	llm := answers(`{"to":[],"text":"ok"}`)
	if _, err := newAgent(llm, opt).Act(context.Background(), v); err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, m := range llm.reqs[0].Messages {
		n += len(m.Content)
	}
	return n
}

// windowRatio is the window memory's prompt over full history's, per turn
// at round 10.
func windowRatio(tb testing.TB, task string) float64 {
	v := paperView(paperWords[task])
	return float64(promptBytes(tb, v, Options{Memory: MemoryWindow})) / float64(promptBytes(tb, v, Options{Memory: MemoryFull}))
}

func TestWindowMemoryCostsAtMost40PercentAtRound10(t *testing.T) {
	for task := range paperWords {
		if r := windowRatio(t, task); r > 0.40 {
			t.Errorf("%s: window memory prompt is %.1f%% of full history at round 10, want at most 40%%", task, 100*r)
		}
	}
}

// BenchmarkWindowMemory reports, per task, the window memory's prompt as a
// percentage of full history's at round 10 with the paper's message
// lengths, and the time to build one window prompt.
func BenchmarkWindowMemory(b *testing.B) {
	for _, task := range []string{"exchange", "recommendation"} {
		b.Run(task, func(b *testing.B) {
			v := paperView(paperWords[task])
			full := promptBytes(b, v, Options{Memory: MemoryFull})
			var win int
			for b.Loop() {
				win = promptBytes(b, v, Options{Memory: MemoryWindow})
			}
			b.ReportMetric(100*float64(win)/float64(full), "window_%_of_full")
			b.ReportMetric(float64(win), "window_bytes")
			b.ReportMetric(float64(full), "full_bytes")
		})
	}
}
