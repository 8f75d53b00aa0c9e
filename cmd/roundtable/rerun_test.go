package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/task"
)

// checkReruns runs every phase close of every log again, as a process
// that never stopped would have: the table is opened from the events
// before the close, the close is asked for at the time the log says, and
// what the moderator records must be what the log holds (the close, the
// decision, the next phase or the end). It returns how many closes it ran.
func checkReruns(t *testing.T, st *stored) int {
	t.Helper()
	n := 0
	for id, evs := range st.logs {
		if _, err := roundtable.Replay(evs); err != nil {
			t.Errorf("table %s does not replay: %v", id, err)
			continue
		}
		for k, e := range evs {
			pc, ok := e.Data.(roundtable.PhaseClosed)
			if !ok {
				continue
			}
			if !rerunClose(t, id, evs, k, roundtable.Position{Round: pc.Round, Phase: pc.Phase}, pc.Reason) {
				break
			}
			n++
		}
	}
	return n
}

// rerunClose closes the phase at pos again on the events before evs[k]
// and compares what is recorded with evs from k on.
func rerunClose(t *testing.T, id string, evs []roundtable.Event, k int, pos roundtable.Position, reason string) bool {
	t.Helper()
	ctx := context.Background()
	ms := roundtabletest.NewMemStore()
	if err := ms.Append(ctx, id, evs[:k]); err != nil {
		t.Fatal(err)
	}
	tb, err := roundtable.OpenFunc(ctx, ms, roundtabletest.NewClock(evs[k].Time), id, func(c roundtable.Config) (roundtable.Task, error) {
		return task.Live(c.Task, len(c.Participants))
	})
	if err != nil {
		t.Errorf("table %s: open before event %d: %v", id, evs[k].Seq, err)
		return false
	}
	if closed, err := tb.Close(ctx, pos, reason); err != nil || !closed {
		t.Errorf("table %s: close %v again: %t, %v", id, pos, closed, err)
		return false
	}
	got, err := ms.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range got[k:] {
		if k+i >= len(evs) || !sameEvent(e, evs[k+i]) {
			want, _ := json.Marshal(evs[min(k+i, len(evs)-1)])
			g, _ := json.Marshal(e)
			t.Errorf("table %s: the close of %v run again records\n%s\nbut the log holds\n%s", id, pos, g, want)
			return false
		}
	}
	return true
}

// sameEvent compares two events as recorded. A phase's deadline is the
// moderator's clock read a moment after the event's own time, so a live
// run and a rerun (on a clock that stands still) set it apart by however
// long the live process was descheduled in between (milliseconds on a
// loaded machine, under -race): deadlines within a second count as the
// same; a phase's duration is whole seconds, so a wrong one still shows.
func sameEvent(a, b roundtable.Event) bool {
	pa, okA := a.Data.(roundtable.PhaseOpened)
	pb, okB := b.Data.(roundtable.PhaseOpened)
	if okA && okB {
		if d := pa.Deadline.Sub(pb.Deadline).Abs(); d >= time.Second {
			return false
		}
		pa.Deadline, pb.Deadline = time.Time{}, time.Time{}
		a.Data, b.Data = pa, pb
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}
