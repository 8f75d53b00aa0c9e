package web

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestStudyResultsAreMeasuredApart: the host's dashboard is not held by
// the measure of newly ended tables (seconds for a class's tables): it
// shows the last results, says new ones are on their way, and starts one
// measure at a time; once it is done, the results count every ended table.
func TestStudyResultsAreMeasuredApart(t *testing.T) {
	ctx := t.Context()
	release := make(chan struct{})
	var calls atomic.Int32
	s := &liveStudy{cfg: StudyConfig{ResultsWait: time.Millisecond, Results: func(ctx context.Context) (StudyResults, error) {
		n := calls.Add(1)
		if n == 1 {
			select {
			case <-release:
			case <-ctx.Done():
				return StudyResults{}, ctx.Err()
			}
		}
		return StudyResults{Rows: []StudyResultRow{{Condition: "c", Cells: []string{string(rune('0' + n))}}}}, nil
	}}}
	for range 3 {
		res, fresh, err := s.resultsOf(ctx, 1)
		if err != nil || fresh || len(res.Rows) != 0 {
			t.Fatalf("while the first measure runs: %v fresh %t err %v, want no results, not fresh", res, fresh, err)
		}
	}
	close(release)
	for {
		res, fresh, err := s.resultsOf(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if fresh {
			if len(res.Rows) != 1 || res.Rows[0].Cells[0] != "1" {
				t.Fatalf("results after the measure: %+v, want the first measure's", res)
			}
			break
		}
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d measures for one count of ended tables, want 1", n)
	}
	for {
		res, fresh, err := s.resultsOf(ctx, 2) // another table ended
		if err != nil {
			t.Fatal(err)
		}
		if fresh {
			if res.Rows[0].Cells[0] != "2" {
				t.Fatalf("results after a second table ended: %+v, want a second measure's", res)
			}
			break
		}
	}
}
