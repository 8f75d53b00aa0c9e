package roundtable_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

func TestExtendMovesTheDeadlineAndIsRecorded(t *testing.T) {
	ctx := context.Background()
	tb, st := newTable(t, roundtable.Config{Rounds: 1, Durations: roundtable.Durations{Message: time.Minute}})
	must(t, tb.Start(ctx))
	first := tb.Snapshot().Deadline
	got, err := tb.Extend(ctx, "p1", "ext-1", 2*time.Minute)
	must(t, err)
	if want := first.Add(2 * time.Minute); !got.Equal(want) || !tb.Snapshot().Deadline.Equal(want) {
		t.Fatalf("deadline %v (state %v), want %v", got, tb.Snapshot().Deadline, want)
	}
	if _, err := tb.Extend(ctx, "p1", "ext-1", 2*time.Minute); err != nil { // a redelivery
		t.Fatal(err)
	}
	evs, err := st.Load(ctx, "t1")
	must(t, err)
	if n := countOf[roundtable.PhaseExtended](evs); n != 1 {
		t.Fatalf("%d phase_extended events, want 1 (the retry is recorded once)", n)
	}
	s, err := roundtable.Replay(evs)
	must(t, err)
	if !s.Deadline.Equal(got) {
		t.Errorf("replayed deadline %v, want %v", s.Deadline, got)
	}
	b, err := evs[len(evs)-1].MarshalJSON()
	must(t, err)
	var back roundtable.Event
	must(t, back.UnmarshalJSON(b))
	if d, ok := back.Data.(roundtable.PhaseExtended); !ok || d.By != 2*time.Minute || back.Actor != "p1" {
		t.Errorf("decoded %+v", back)
	}
}

func TestExtendRefusals(t *testing.T) {
	ctx := context.Background()
	noDeadline, _ := newTable(t, roundtable.Config{Rounds: 1})
	must(t, noDeadline.Start(ctx))
	timed, _ := newTable(t, roundtable.Config{Rounds: 1, Durations: roundtable.Durations{Message: time.Minute}})
	notStarted, _ := newTable(t, roundtable.Config{Rounds: 1, Durations: roundtable.Durations{Message: time.Minute}})
	must(t, timed.Start(ctx))
	for name, c := range map[string]struct {
		tb   *roundtable.Table
		by   time.Duration
		code roundtable.Code
	}{
		"no deadline":     {noDeadline, time.Minute, roundtable.Conflict},
		"not running":     {notStarted, time.Minute, roundtable.Conflict},
		"zero":            {timed, 0, roundtable.Invalid},
		"more than a day": {timed, 25 * time.Hour, roundtable.Invalid},
	} {
		_, err := c.tb.Extend(ctx, "p1", "", c.by)
		var e *roundtable.Error
		if !errors.As(err, &e) || e.Code != c.code {
			t.Errorf("%s: err %v, want code %s", name, err, c.code)
		}
	}
}

func TestExtendAfterTheDeadlineCountsFromNow(t *testing.T) {
	ctx := context.Background()
	st := roundtabletest.NewMemStore()
	clock := roundtabletest.NewClock(t0)
	tb, err := roundtable.Create(ctx, st, clock, roundtable.TextTask{Topic: "lunch"}, "t1",
		roundtable.Config{Rule: "plurality", Rounds: 1, Participants: people(2), Durations: roundtable.Durations{Message: time.Minute}})
	must(t, err)
	must(t, tb.Start(ctx))
	clock.Advance(5 * time.Minute)
	got, err := tb.Extend(ctx, "p1", "", time.Minute)
	must(t, err)
	if want := t0.Add(6 * time.Minute); !got.Equal(want) {
		t.Errorf("deadline %v, want %v (now + 1m)", got, want)
	}
}

func countOf[T roundtable.Payload](evs []roundtable.Event) int {
	n := 0
	for _, e := range evs {
		if _, ok := e.Data.(T); ok {
			n++
		}
	}
	return n
}
