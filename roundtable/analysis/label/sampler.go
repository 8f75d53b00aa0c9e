package label

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

// DefaultSamples is how often a Sampler asks when K is zero.
const DefaultSamples = 10

// maxReasks bounds the re-asks of a tie; a tie that survives them goes to
// the tied label that comes first in Question.Labels.
const maxReasks = 3

// noneOfThese is the extra choice of a multi-label re-ask, so that a tied
// label can lose: without it a re-ask offering one label would force it.
const noneOfThese = "none of these"

// Sampler asks one model K times and takes the majority (docs/protocol.md#repeated-sampling). A tie for first is asked again, K times, with only the tied
// labels, up to three times. For a multi-label question each label is its
// own vote: it wins when more than half of the usable answers name it, a
// label named by exactly half is re-asked with the other tied labels and
// the choice "none of these", and when none wins the answer is
// Question.Fallback.
//
// Answers that fail or name no allowed label are kept as samples with
// their error and do not count; when no answer of an ask counts, Label
// fails with the last error.
type Sampler struct {
	LLM      agent.LLM
	Endpoint string // names the model in samples and annotations
	K        int
	// Temperature of the samples; nil means the endpoint's default.
	Temperature *float64
	// Demos, when set, picks demonstrations for each question.
	Demos *Demonstrations
}

var _ Labeler = (*Sampler)(nil)

// Model implements Labeler.
func (s *Sampler) Model() string { return s.Endpoint }

// Label implements Labeler.
func (s *Sampler) Label(ctx context.Context, q Question) (Verdict, error) {
	if err := s.Demos.attach(ctx, &q); err != nil {
		return Verdict{}, err
	}
	var err error
	if q.Demos, err = s.Demos.withReasoning(ctx, q, Endpoint{Name: s.Endpoint, LLM: s.LLM}, s.Temperature); err != nil {
		return Verdict{}, err
	}
	var v Verdict
	labels, won := q.Labels, []string(nil)
	for round := 0; ; round++ {
		samples, err := s.ask(ctx, q, labels, round)
		v.Samples = append(v.Samples, samples...)
		if err != nil {
			return v, err
		}
		t, n := tally(samples)
		v.Rounds = append(v.Rounds, t)
		winners, tied := decide(q.Multi, labels, t, n)
		won = append(won, winners...)
		if len(tied) == 0 || (!q.Multi && len(tied) == 1) {
			won = append(won, tied...)
			break
		}
		if round == maxReasks {
			if !q.Multi {
				won = append(won, tied[0])
			}
			break
		}
		labels = tied
		if q.Multi {
			labels = append(tied, noneOfThese)
		}
	}
	v.Labels = ordered(q.Labels, won)
	if len(v.Labels) == 0 && q.Fallback != "" {
		v.Labels = []string{q.Fallback}
	}
	return v, nil
}

// decide splits a round's tally. Single label: the labels with the most
// votes are "tied" (one of them means a winner). Multi-label: labels named
// by more than half of n answers win, by exactly half are tied.
func decide(multi bool, labels []string, t Tally, n int) (winners, tied []string) {
	if !multi {
		top := 0
		for _, l := range labels {
			top = max(top, t[l])
		}
		for _, l := range labels {
			if t[l] == top {
				tied = append(tied, l)
			}
		}
		return nil, tied
	}
	for _, l := range labels {
		if l == noneOfThese {
			continue
		}
		switch c := t[l]; {
		case 2*c > n:
			winners = append(winners, l)
		case 2*c == n && c > 0:
			tied = append(tied, l)
		}
	}
	return winners, tied
}

// tally counts the labels of the usable samples, and how many there were.
func tally(samples []Sample) (Tally, int) {
	t, n := Tally{}, 0
	for _, s := range samples {
		if s.Error != "" {
			continue
		}
		n++
		for _, l := range s.Labels {
			t[l]++
		}
	}
	return t, n
}

// ask draws K answers concurrently. It fails when none is usable, or at
// once when the model refuses the request itself (a configuration error
// that every sample would repeat) or ctx ends.
func (s *Sampler) ask(ctx context.Context, q Question, labels []string, round int) ([]Sample, error) {
	k := s.K
	if k <= 0 {
		k = DefaultSamples
	}
	samples := make([]Sample, k)
	errs := make([]error, k)
	var wg sync.WaitGroup
	for i := range k {
		wg.Go(func() { samples[i], errs[i] = s.one(ctx, q, labels, round) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return samples, fmt.Errorf("label %s with %s: %w", q.Name, s.Endpoint, err)
	}
	var last error
	usable := 0
	for _, err := range errs {
		if err == nil {
			usable++
			continue
		}
		last = err
		var le *agent.Error
		if errors.As(err, &le) && le.Code == agent.CodeRejected {
			return samples, fmt.Errorf("label %s with %s: %w", q.Name, s.Endpoint, err)
		}
	}
	if usable == 0 {
		return samples, fmt.Errorf("label %s with %s: no usable answer in %d: %w", q.Name, s.Endpoint, k, last)
	}
	return samples, nil
}

func (s *Sampler) one(ctx context.Context, q Question, labels []string, round int) (Sample, error) {
	smp := Sample{Endpoint: s.Endpoint, Round: round}
	resp, err := s.LLM.Complete(ctx, request(s.LLM, q, labels, s.Temperature))
	if err != nil {
		smp.Error = err.Error()
		return smp, err
	}
	smp.Raw = resp.Content
	_, got, err := parseLabels(q, labels, resp.Content)
	if err != nil {
		smp.Error = err.Error()
		return smp, err
	}
	smp.Labels = got
	return smp, nil
}
