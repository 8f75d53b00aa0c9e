package web

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/store"
)

func threeConditions(seed int64) StudyConfig {
	return StudyConfig{Name: "s", Seed: seed, Conditions: []StudyCondition{
		{Name: "a", Preset: "pa", People: 3}, {Name: "b", Preset: "pb", People: 2}, {Name: "c", Preset: "pc", People: 5}}}
}

// TestSeatOfIsBalancedAndBlocked: after every arrival the counts per
// condition differ by at most one; each condition's people fill its
// tables in turn; the blocks' orders come from the seed (another seed,
// another order) and are not all the same.
func TestSeatOfIsBalancedAndBlocked(t *testing.T) {
	cfg := threeConditions(11)
	counts := make([]int, 3)
	var orders [][]int
	for i := range 900 {
		c, table, seat := cfg.seatOf(i)
		if want := counts[c]; table*cfg.Conditions[c].People+seat != want {
			t.Fatalf("arrival %d: condition %d table %d seat %d, want its arrival %d there", i, c, table, seat, want)
		}
		counts[c]++
		if lo, hi := slices.Min(counts), slices.Max(counts); hi-lo > 1 {
			t.Fatalf("after %d arrivals the counts are %v", i+1, counts)
		}
		if i%3 == 0 {
			orders = append(orders, nil)
		}
		orders[len(orders)-1] = append(orders[len(orders)-1], c)
	}
	distinct := map[string]bool{}
	for _, o := range orders {
		distinct[fmt.Sprint(o)] = true
	}
	if len(distinct) < 4 {
		t.Errorf("300 blocks of 3 conditions take %d orders; want them drawn (6 exist)", len(distinct))
	}
	other := threeConditions(12)
	same := true
	for i := range 30 {
		a, _, _ := cfg.seatOf(i)
		b, _, _ := other.seatOf(i)
		same = same && a == b
	}
	if same {
		t.Error("seeds 11 and 12 seat the first 30 arrivals alike")
	}
}

// TestStudySeatsSurviveARestart: the seats given are kept in the store;
// the study opened again under its name gives each person the same seat
// and goes on with the next arrival.
func TestStudySeatsSurviveARestart(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "rt.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	open := func() *liveStudy {
		p := New(Config{Secret: []byte("restart")}, db)
		if err := p.OpenStudy(ctx, threeConditions(5)); err != nil {
			t.Fatal(err)
		}
		return p.currentStudy()
	}
	s := open()
	var before []studySeat
	for i := range 7 {
		st, err := s.assign(ctx, fmt.Sprintf("v%d", i), fmt.Sprintf("P%d", i), 0, time.Unix(int64(i), 0).UTC())
		if err != nil {
			t.Fatal(err)
		}
		before = append(before, st)
	}
	s.mu.Lock()
	t0 := s.table(before[0].Condition, before[0].Table)
	s.mu.Unlock()
	if _, err := s.seated(ctx, "v0", "room0", t0); err != nil {
		t.Fatal(err)
	}
	again := open()
	if again.code != s.code {
		t.Errorf("the code changed over the restart: %s, then %s", s.code, again.code)
	}
	for i, want := range before {
		got, err := again.assign(ctx, want.Visitor, "other", 0, time.Now())
		if i == 0 {
			want.Room = "room0"
		}
		if err != nil || got != want {
			t.Errorf("person %d after the restart: %+v (%v), want %+v", i, got, err, want)
		}
	}
	next, err := again.assign(ctx, "v7", "P7", 0, time.Now())
	if c, table, seat := threeConditions(5).seatOf(7); err != nil || next.N != 7 || next.Condition != again.cfg.Conditions[c].Name || next.Table != table || next.Seat != seat {
		t.Errorf("the arrival after the restart: %+v (%v)", next, err)
	}
	if again.rooms[tableKey(before[0].Condition, before[0].Table)].seated != 1 {
		t.Error("the seated count of a table is lost over the restart")
	}
}

// TestParseNames reads rosters as people write and export them, and
// names the line of a name that cannot be used.
func TestParseNames(t *testing.T) {
	for _, c := range []struct {
		in, want, err string
	}{
		{in: "Ann\nBob\n", want: "Ann|Bob"},
		{in: "\ufeffname\r\nAnn\r\n\r\n\"Lovelace, Ada\"\r\n", want: "Ann|Lovelace, Ada"},
		{in: "id,Full name\n1,Ann\n2,\"Bob \"\"B\"\" Smith\"\n", want: "Ann|Bob \"B\" Smith"},
		{in: "Ann\n\n\nBob\nANN\n", err: `line 5: "ANN" is already on line 1`},
		{in: "Ann\n\"Bob\n", err: "not CSV"},
		{in: "name\n\n", err: "no name"},
		{in: "Ann\nThe Moderator\n", err: `line 2: "The Moderator"`},
	} {
		got, err := parseNames([]byte(c.in))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want an error with %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || strings.Join(got, "|") != c.want {
			t.Errorf("%q: %q %v, want %q", c.in, got, err, c.want)
		}
	}
}
