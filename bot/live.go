package bot

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// live drives one table in a channel. Everything that changes the table
// holds mu. What the table's events imply is posted by the platform's
// courier, in the order of the events (outbox.go).
type live struct {
	svc      *Service
	table    *roundtable.Table
	platform Platform
	channel  string

	mu      sync.Mutex
	agents  map[string]roundtable.Agent
	timer   Timer
	warning Timer // the open phase's one-minute warning (warning.go)
	// startTimer starts a waiting table at its set time (waiting.go).
	startTimer Timer
	cancel     context.CancelFunc // cancels the open phase's agent calls
	stopped    bool
}

func (lt *live) seatAgent(p roundtable.Participant) error {
	if p.Kind != roundtable.Bot {
		return nil
	}
	a, err := lt.svc.deps.Agent(p, lt.table.Task())
	if err != nil {
		return fmt.Errorf("agent %s: %w", p.Name, err)
	}
	lt.agents[p.ID] = a
	return nil
}

// begin picks up a new or resumed table: a waiting one waits for its
// trigger (waiting.go), a running one goes on.
func (lt *live) begin(ctx context.Context) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if s := lt.table.Snapshot(); s.Status == roundtable.StatusCreated {
		lt.armStart(s)
		lt.startWhenDue(ctx) // a full table, or a time that passed while the service was down
		return
	}
	lt.enter(ctx)
}

// enter arms the open phase's deadline and asks the agents that have not
// acted (the phase's prompt is posted by the courier).
func (lt *live) enter(ctx context.Context) {
	lt.svc.audit.reveal(lt)
	s := lt.table.Snapshot()
	if s.Status == roundtable.StatusEnded {
		lt.finish(ctx, s)
		return
	}
	now := lt.svc.deps.Clock.Now()
	if !s.Deadline.IsZero() && !s.Deadline.After(now) {
		lt.advance(ctx, s.Position(), roundtable.ClosedDeadline)
		return
	}
	lt.arm(s, now)
	lt.askAgents(s)
	lt.maybeAdvance(ctx, s.Position())
}

func (lt *live) arm(s *roundtable.State, now time.Time) {
	lt.armWarning(s, now)
	if lt.timer != nil {
		lt.timer.Stop()
		lt.timer = nil
	}
	if s.Deadline.IsZero() {
		return
	}
	pos := s.Position()
	lt.timer = lt.svc.deps.Clock.AfterFunc(s.Deadline.Sub(now), func() { lt.onDeadline(pos) })
}

func (lt *live) onDeadline(pos roundtable.Position) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if lt.stopped {
		return
	}
	lt.advance(lt.svc.context(), pos, roundtable.ClosedDeadline)
}

// askAgents starts every pending agent of the open phase. Their answers
// come back through agentDone. A phase with a deadline cancels its agents
// when it closes (on the service's clock, and after any extension), and
// records those that had not answered (missed.go).
func (lt *live) askAgents(s *roundtable.State) {
	if lt.cancel != nil {
		lt.cancel()
	}
	base := lt.svc.context()
	var ctx context.Context
	var cancel context.CancelFunc
	switch {
	case s.Deadline.IsZero() && lt.svc.cfg.AgentTimeout > 0:
		ctx, cancel = context.WithTimeout(base, lt.svc.cfg.AgentTimeout)
	default:
		ctx, cancel = context.WithCancel(base)
	}
	lt.cancel = cancel
	pos := s.Position()
	for _, p := range s.Pending() {
		agent := lt.agents[p.ID]
		if agent == nil {
			continue
		}
		v, viewErr := lt.table.ViewFor(ctx, p.ID, agent)
		if viewErr != nil {
			lt.svc.log.Error("agent view", "table", lt.table.ID(), "participant", p.ID, "err", viewErr)
		}
		lt.svc.wg.Add(1)
		go func() {
			defer lt.svc.wg.Done()
			if viewErr != nil { // recorded as the agent's failure, or the phase would wait for it
				lt.agentDone(pos, p.ID, roundtable.Fail{Kind: "error", Reason: "the table could not show this agent what it may see: " + viewErr.Error()})
				return
			}
			a, err := agent.Act(ctx, v)
			lt.agentDone(pos, p.ID, agentAction(ctx, a, err))
		}()
	}
}

func agentAction(ctx context.Context, a roundtable.Action, err error) roundtable.Action {
	switch {
	case err != nil && ctx.Err() != nil:
		return roundtable.Fail{Kind: "timeout", Reason: "no answer before the phase closed"}
	case err != nil:
		return roundtable.Fail{Kind: "error", Reason: err.Error()}
	case a == nil:
		return roundtable.Fail{Kind: "error", Reason: "the agent returned no action"}
	}
	return a
}

// agentDone records an agent's answer if its phase is still open.
func (lt *live) agentDone(pos roundtable.Position, id string, a roundtable.Action) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if lt.stopped {
		return
	}
	ctx := lt.svc.context()
	now := lt.position()
	if now != pos {
		lt.lateAnswer(pos, id, a) // the phase's close recorded the agent as missing it
		return
	}
	a = roundtable.WithActor(a, id, agentKey(pos, id))
	err := lt.table.Do(ctx, a)
	if code := roundtable.ErrorCode(err); code == roundtable.Invalid {
		if _, ballot := a.(roundtable.Cast); !ballot {
			err = lt.table.Do(ctx, roundtable.Fail{Actor: id, Kind: "format", Reason: roundtable.ErrorMessage(err)})
		}
	}
	if err != nil && roundtable.ErrorCode(err) != roundtable.Invalid {
		lt.svc.log.Warn("agent action not recorded", "table", lt.table.ID(), "participant", id, "err", err)
	}
	lt.maybeAdvance(ctx, pos)
}

// act records a person's action and closes the phase early when everyone
// has acted.
func (lt *live) act(ctx context.Context, a roundtable.Action) error {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	pos := lt.position()
	if err := lt.table.Do(ctx, a); err != nil {
		return err
	}
	lt.maybeAdvance(ctx, pos)
	return nil
}

func (lt *live) maybeAdvance(ctx context.Context, pos roundtable.Position) {
	if lt.table.Ready() && lt.hasPerson() {
		lt.advance(ctx, pos, roundtable.ClosedAllActed)
	}
	lt.svc.audit.reveal(lt)
}

// advance closes the phase at pos (if it is still open) and enters the
// next phase; the courier shows the outcome. Agents that have not answered
// are recorded as missing the phase (missed.go).
func (lt *live) advance(ctx context.Context, pos roundtable.Position, reason string) {
	closed, err := lt.closePhase(ctx, pos, reason)
	if err != nil {
		lt.svc.log.Error("close phase", "table", lt.table.ID(), "round", pos.Round, "phase", pos.Phase, "err", err)
		return
	}
	if !closed {
		return
	}
	if lt.cancel != nil {
		lt.cancel()
	}
	lt.enter(ctx)
}

// finish stops driving an ended table; its end is posted by the courier.
func (lt *live) finish(context.Context, *roundtable.State) {
	lt.halt()
	lt.svc.forget(lt) // its last posts are out: it leaves memory
}

// halt stops the deadline and the agents; the caller holds mu.
func (lt *live) halt() {
	lt.stopWarning()
	lt.stopStartTimer()
	if lt.timer != nil {
		lt.timer.Stop()
		lt.timer = nil
	}
	if lt.cancel != nil {
		lt.cancel()
		lt.cancel = nil
	}
}

// stop ends the driving of the table (the service is shutting down).
func (lt *live) stop() {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	lt.stopped = true
	lt.halt()
}

func phaseKey(p roundtable.Position, what string) string {
	if p.Turn > 0 { // each turn of a step that takes turns is announced
		return fmt.Sprintf("r%d/%s/t%d/%s", p.Round, p.Phase, p.Turn, what)
	}
	return fmt.Sprintf("r%d/%s/%s", p.Round, p.Phase, what)
}

func phaseControls(s *roundtable.State) []Control {
	r := ref{Table: s.ID, Round: s.Round}
	switch s.Phase {
	case roundtable.PhaseMessage:
		return []Control{{ID: withVerb(r, verbWrite), Kind: Button, Label: "Write message", Primary: true}}
	case roundtable.PhaseProposal:
		return []Control{{ID: withVerb(r, verbPropose), Kind: Button, Label: "Propose", Primary: true},
			{ID: withVerb(r, verbSkip), Kind: Button, Label: "Skip"}}
	case roundtable.PhaseVote:
		return ballotControls(s.ID, s.Round, s.Config.Rule, s.Candidates)
	}
	return protocolControls(s)
}

func joinNames(n []string) string {
	out := ""
	for i, s := range n {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}
