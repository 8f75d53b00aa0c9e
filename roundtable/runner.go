package roundtable

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// Runner drives a table headless: in every phase it asks all pending agents
// at once, records their answers in table order (so a run is reproducible
// whatever order they arrive in), and closes the phase.
type Runner struct {
	Agents  map[string]Agent // by participant ID; participants without one are not asked
	Timeout time.Duration    // per phase; 0 means none
	Logger  *slog.Logger     // nil means discard
}

// Stats is what a run measured.
type Stats struct {
	Phases   map[Phase]time.Duration // wall time spent per phase kind
	Failures int
}

// Run drives t until it ends or ctx is done. It resumes a table in any
// state: participants that already acted in the open phase are not asked
// again.
func (r *Runner) Run(ctx context.Context, t *Table) (Stats, error) {
	st := Stats{Phases: map[Phase]time.Duration{}}
	for {
		status, err := r.step(ctx, t, &st)
		if err != nil || status == StatusEnded {
			return st, err
		}
	}
}

// Step drives t through one phase (or starts it) and returns its status
// after: Run, one phase at a time, for a caller that does something
// between phases.
func (r *Runner) Step(ctx context.Context, t *Table) (Status, error) {
	return r.step(ctx, t, &Stats{Phases: map[Phase]time.Duration{}})
}

func (r *Runner) step(ctx context.Context, t *Table, st *Stats) (Status, error) {
	var status Status
	var pos Position
	var pending []Participant
	t.Read(func(s *State) { status, pos, pending = s.Status, s.Position(), s.Pending() })
	switch status {
	case StatusEnded:
		return status, nil
	case StatusCreated:
		if err := t.Start(ctx); err != nil {
			return status, err
		}
		return StatusRunning, nil
	}
	start := time.Now()
	acts := r.ask(ctx, t, pending)
	if err := ctx.Err(); err != nil {
		return status, err
	}
	if err := r.settle(ctx, t, pos, acts, st); err != nil {
		return status, err
	}
	st.Phases[pos.Phase] += time.Since(start)
	r.logger().Debug("phase closed", "table", t.ID(), "round", pos.Round, "phase", pos.Phase)
	t.Read(func(s *State) { status = s.Status })
	return status, nil
}

// ask queries every pending agent concurrently and returns their actions in
// table order. An agent that errs or outlives the phase timeout yields Fail.
func (r *Runner) ask(ctx context.Context, t *Table, pending []Participant) []Action {
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	type answer struct {
		i int
		a Action
	}
	out := make([]Action, len(pending))
	ch := make(chan answer, len(pending))
	asked := 0
	for i, p := range pending {
		agent := r.Agents[p.ID]
		if agent == nil {
			continue
		}
		v, err := t.ViewFor(ctx, p.ID, agent)
		if err != nil {
			out[i] = Fail{Kind: "error", Reason: err.Error()}
			continue
		}
		asked++
		go func() { ch <- answer{i, act(ctx, agent, v)} }()
	}
	for ; asked > 0; asked-- {
		select {
		case a := <-ch:
			out[a.i] = a.a
		case <-ctx.Done():
			for i, p := range pending {
				if out[i] == nil && r.Agents[p.ID] != nil {
					out[i] = Fail{Kind: "timeout", Reason: "no answer before the phase timeout"}
				}
			}
			asked = 1
		}
	}
	for i, p := range pending {
		if out[i] != nil {
			out[i] = WithActor(out[i], p.ID, "")
		}
	}
	return out
}

func act(ctx context.Context, agent Agent, v View) Action {
	a, err := agent.Act(ctx, v)
	switch {
	case err != nil && ctx.Err() != nil:
		return Fail{Kind: "timeout", Reason: fmt.Sprintf("no answer in time: %v", err)}
	case err != nil:
		return Fail{Kind: "error", Reason: err.Error()}
	case a == nil:
		return Fail{Kind: "error", Reason: "the agent returned no action"}
	}
	return a
}

// settle records the phase's actions and closes it in one transaction.
// An action the moderator would refuse for its content (a malformed
// proposal or message) is recorded as a format failure instead, so the log
// says what went wrong; a rejected ballot is recorded as rejected.
func (r *Runner) settle(ctx context.Context, t *Table, pos Position, acts []Action, st *Stats) error {
	todo := make([]Action, 0, len(acts))
	for _, a := range acts {
		if a == nil {
			continue
		}
		if f, ok := a.(Fail); ok {
			st.Failures++
			todo = append(todo, f)
			continue
		}
		checked, reason := checkContent(t, a)
		if reason != "" {
			st.Failures++
			actor, key := a.Who()
			r.logger().Debug("agent action refused", "table", t.ID(), "participant", actor, "reason", reason)
			checked = Fail{Actor: actor, Key: key, Kind: "format", Reason: reason, Usage: usageOf(a)}
		}
		todo = append(todo, checked)
	}
	errs, _, err := t.Settle(ctx, pos, ClosedAllActed, todo...)
	for _, e := range errs {
		if ErrorCode(e) == Invalid {
			st.Failures++ // a rejected ballot
		}
	}
	return err
}

// checkContent checks what an action says, before it is recorded, and
// returns it with its proposal normalised (once: the moderator does not
// normalise it again), or why it is refused.
func checkContent(t *Table, a Action) (Action, string) {
	task := t.Task()
	var err error
	switch act := a.(type) {
	case Say:
		err = CheckText(act.Text)
	case Propose:
		if act.Proposal, err = task.Normalize(act.Proposal); err == nil {
			act.normalized = true
			a = act
		}
	case Report:
		err = t.checkReport(act)
	}
	if err != nil {
		return a, ErrorMessage(err)
	}
	return a, ""
}

func usageOf(a Action) *Usage {
	switch a := a.(type) {
	case Say:
		return a.Usage
	case Propose:
		return a.Usage
	case Skip:
		return a.Usage
	case Cast:
		return a.Usage
	case Report:
		return a.Usage
	}
	return nil
}

func (r *Runner) logger() *slog.Logger {
	if r.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return r.Logger
}
