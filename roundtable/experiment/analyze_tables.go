package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/readability"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	deliberation "github.com/roundtable-ai/roundtable/roundtable/protocol/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	"github.com/roundtable-ai/roundtable/roundtable/task/recommend"
)

// errNotEnded marks a table that has not ended: its last rounds are
// still to come, so it is left out of the statistics.
var errNotEnded = errors.New("not ended")

// measurers measure stored tables for the report with the instruments,
// keeping their annotations beside each table's log. They are safe for
// concurrent use, one table per call.
type measurers struct {
	readability, acts analysis.Instrument
	embedding         analysis.Instrument // nil: hashed TF-IDF over each table
	db                Store
	mu                sync.Mutex
	missing           map[string]int // instrument -> messages its model failed on
}

// annotate annotates a table's messages with in through a buffer that is
// written to the database in one transaction, and counts what is missing.
func (m *measurers) annotate(ctx context.Context, events []roundtable.Event, in analysis.Instrument) ([]roundtable.Annotation, error) {
	buf := &annotationBuffer{db: m.db}
	anns, err := analysis.Cache{Store: buf}.AnnotateLog(ctx, events, in)
	if ferr := buf.flush(context.WithoutCancel(ctx)); ferr != nil && err == nil {
		err = ferr
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, a := range anns {
		if a.Missing != "" {
			m.missing[a.Instrument]++
		}
	}
	return anns, err
}

// measure replays table id and measures it.
func (m *measurers) measure(ctx context.Context, id string) (report.Table, error) {
	events, err := m.db.Load(ctx, id)
	if err != nil {
		return report.Table{}, err
	}
	s, err := roundtable.Replay(events)
	if err != nil {
		return report.Table{}, fmt.Errorf("replay: %w", err)
	}
	if s.Status != roundtable.StatusEnded {
		return report.Table{}, errNotEnded
	}
	t := report.Table{ID: id, Task: s.Config.Task.Kind, Rule: string(s.Config.Rule), Votes: s.Config.Protocol.Plays(roundtable.PhaseVote)}
	if t.Task == "" {
		t.Task = "text"
	}
	outcomes(s, &t)
	if err := score(s, &t); err != nil {
		return t, err
	}
	if err := m.messages(ctx, events, s, &t); err != nil {
		return t, err
	}
	return t, nil
}

// outcomes fills what every task has: decisions in force, agreements,
// new proposals and failed actions per round. A round without a vote (the
// table stopped in its proposal phase) keeps the decision in force before
// it, as sim's coverage does.
func outcomes(s *roundtable.State, t *report.Table) {
	latest := map[string][]byte{}
	coverage := deliberation.Coverage(s)
	for i, r := range s.Rounds {
		t.Decided = append(t.Decided, i < len(coverage) && coverage[i] == 1)
		t.Agreed = append(t.Agreed, r.Tally != nil && r.Tally.Winner != "")
		fresh := false
		for _, p := range r.Proposals {
			key, _ := json.Marshal(struct {
				T string
				D json.RawMessage
			}{roundtable.CanonicalText(p.Proposal.Text), p.Proposal.Data})
			if !bytes.Equal(latest[p.By], key) {
				fresh = true
			}
			latest[p.By] = key
		}
		t.Proposed = append(t.Proposed, fresh)
		t.Failures += len(r.Failures) + len(r.Rejected)
	}
}

// score fills the task's performance per round: the exchange economy's
// U_r/U_max (and its Table 1 metrics), the recommendation task's absolute
// error of the rating in force (its truth is in the log; a round with
// nothing decided counts as the "always 4" prediction, as sim scores it).
// Other tasks have none.
func score(s *roundtable.State, t *report.Table) error {
	if len(s.Rounds) == 0 {
		return nil
	}
	var series []float64
	scale := 1.0
	switch t.Task {
	case "exchange":
		task, err := exchange.FromSpec(s.Config.Task, len(s.Participants))
		if err != nil {
			return fmt.Errorf("rebuild the exchange task: %w", err)
		}
		ms := deliberation.MeasureExchange(task, s)
		series, scale, t.Scalars = ms.Series["U"], 100, ms.Scalars
	case "recommendation":
		if _, err := recommend.CaseOf(s.Config.Task); err != nil {
			return fmt.Errorf("score: %w", err)
		}
		series = deliberation.MeasureRecommend(nil, s).Series["abs_error"]
	}
	for r := 1; r <= len(s.Rounds) && r <= len(series); r++ {
		t.Perf = append(t.Perf, series[r-1]/scale)
	}
	return nil
}

// messages measures every message: words and grade, dialogue acts, and
// the information difference of each round.
func (m *measurers) messages(ctx context.Context, events []roundtable.Event, s *roundtable.State, t *report.Table) error {
	read, err := m.annotate(ctx, events, m.readability)
	if err != nil {
		return fmt.Errorf("readability: %w", err)
	}
	tags, err := m.annotate(ctx, events, m.acts)
	if err != nil {
		return fmt.Errorf("dialogue acts: %w", err)
	}
	bySeq := map[uint64]*report.Message{}
	for _, r := range s.Rounds {
		for _, msg := range r.Messages {
			t.Messages = append(t.Messages, report.Message{Round: r.Round, Speaker: msg.From})
		}
	}
	i := 0
	for _, r := range s.Rounds {
		for _, msg := range r.Messages {
			bySeq[msg.Seq] = &t.Messages[i]
			i++
		}
	}
	for _, a := range read {
		var st readability.Stats
		if msg := bySeq[a.Seq]; msg != nil && a.Missing == "" && json.Unmarshal(a.Result, &st) == nil {
			msg.Words, msg.FKGrade = st.Words, st.FKGrade
		}
	}
	for _, a := range tags {
		var res analysis.ActsResult
		if msg := bySeq[a.Seq]; msg != nil && a.Missing == "" && json.Unmarshal(a.Result, &res) == nil {
			msg.Acts = append([]string{}, res.Acts...)
		}
	}
	t.InfoDiff, err = m.infoDiff(ctx, events, len(s.Rounds))
	return err
}

// infoDiff is the information difference per round (NaN where none).
func (m *measurers) infoDiff(ctx context.Context, events []roundtable.Event, rounds int) ([]float64, error) {
	var diffs []embed.RoundDiff
	var err error
	if m.embedding == nil {
		diffs, err = analysis.InfoDiffLog(ctx, events, embed.HashedTFIDF{})
	} else {
		diffs, err = m.cachedInfoDiff(ctx, events)
	}
	if err != nil {
		return nil, err
	}
	out := make([]float64, rounds)
	for i := range out {
		out[i] = math.NaN()
		if i < len(diffs) && diffs[i].OK {
			out[i] = diffs[i].Value
		}
	}
	return out, nil
}

// cachedInfoDiff embeds each message through the annotation cache (a
// model is asked once per message, ever) and compares the rounds.
func (m *measurers) cachedInfoDiff(ctx context.Context, events []roundtable.Event) ([]embed.RoundDiff, error) {
	anns, err := m.annotate(ctx, events, m.embedding)
	if err != nil {
		return nil, fmt.Errorf("embeddings: %w", err)
	}
	round := map[uint64]int{}
	last := 0
	for _, e := range events {
		if p, ok := e.Data.(roundtable.MessagePosted); ok && p.Round > 0 {
			round[e.Seq] = p.Round
			last = max(last, p.Round)
		}
	}
	byRound := make([][][]float64, last)
	for _, a := range anns {
		var res analysis.EmbeddingResult
		if r := round[a.Seq]; r > 0 && a.Missing == "" && json.Unmarshal(a.Result, &res) == nil {
			byRound[r-1] = append(byRound[r-1], res.Vector)
		}
	}
	return embed.Rounds(byRound)
}
