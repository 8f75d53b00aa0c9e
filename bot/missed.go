package bot

import (
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Agents that miss a phase. A phase that closes while an agent has not
// answered (its deadline passed, the organiser closed it early, or the
// server was down past its deadline) records a timeout failure for each
// such agent in the transaction that closes it, the way a headless table
// records an agent that did not answer in time: the log and every export
// say that the agent missed the phase. An answer that comes after the
// close is not recorded; it is logged.

// closePhase closes the phase at pos (if it is still open), recording the
// agents that miss it, and reports whether it closed.
func (lt *live) closePhase(ctx context.Context, pos roundtable.Position, reason string) (bool, error) {
	missed := lt.missed(pos, reason)
	if len(missed) == 0 {
		return lt.table.Close(ctx, pos, reason)
	}
	errs, closed, err := lt.table.Settle(ctx, pos, reason, missed...)
	for i, e := range errs {
		if e != nil && closed {
			actor, _ := missed[i].Who()
			lt.svc.log.Warn("missed phase not recorded", "table", lt.table.ID(), "participant", actor, "err", e)
		}
	}
	return closed, err
}

// missed returns a timeout failure for every agent that has not acted in
// the open phase at pos, unless the phase closes because everyone acted or
// the table stops.
func (lt *live) missed(pos roundtable.Position, reason string) []roundtable.Action {
	if reason == roundtable.ClosedAllActed || reason == roundtable.ClosedStopped {
		return nil
	}
	var out []roundtable.Action
	lt.table.Read(func(s *roundtable.State) {
		if s.Position() != pos {
			return
		}
		for _, p := range s.Pending() {
			if lt.agents[p.ID] == nil {
				continue
			}
			f := roundtable.Fail{Kind: "timeout", Reason: missedReason(reason)}
			out = append(out, roundtable.WithActor(f, p.ID, agentKey(pos, p.ID)))
		}
	})
	return out
}

func missedReason(closed string) string {
	switch closed {
	case roundtable.ClosedDeadline:
		return "no answer before the phase's deadline"
	case roundtable.ClosedEarly:
		return "no answer before the phase was closed early"
	}
	return fmt.Sprintf("no answer before the phase closed (%s)", closed)
}

// agentKey is the idempotency key of an agent's action in a phase.
func agentKey(pos roundtable.Position, id string) string {
	return fmt.Sprintf("agent:%d:%s:%s", pos.Round, pos.Phase, id)
}

// lateAnswer logs an agent's answer that came after its phase closed (the
// close recorded the agent as missing the phase, unless the table stopped).
func (lt *live) lateAnswer(pos roundtable.Position, id string, a roundtable.Action) {
	kind := fmt.Sprintf("%T", a)
	if f, ok := a.(roundtable.Fail); ok {
		kind = "failure: " + f.Kind
	}
	lt.svc.log.Info("agent answered after its phase closed; the answer is not recorded",
		"table", lt.table.ID(), "participant", id, "round", pos.Round, "phase", pos.Phase, "answer", kind)
}
