package roundtable_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// A protocol's briefing reaches its agents' views from the registry, by
// the schedule's name, and is never written to the log.
func TestViewsCarryTheRegisteredBriefing(t *testing.T) {
	b := roundtable.Briefing{Setting: "participants of a test", Schedule: "Talk for {rounds} rounds.", NoRule: true}
	roundtable.RegisterBriefing("briefing-test", b)
	roundtable.RegisterBriefing("briefing-test", b) // the same again: harmless
	pr := &roundtable.Protocol{Name: "briefing-test", Round: []roundtable.Step{{Phase: roundtable.PhaseMessage}}}
	tb, st := protocolTable(t, pr, 2, 2)
	v, err := tb.View(context.Background(), "p1")
	if err != nil || v.Briefing == nil || *v.Briefing != b {
		t.Fatalf("view briefing %+v, %v; want %+v", v.Briefing, err, b)
	}
	events, err := st.load(context.Background(), "t1")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(events[0].Data)
	if strings.Contains(string(raw), "participants of a test") {
		t.Errorf("the briefing was written to the log: %s", raw)
	}
	custom := &roundtable.Protocol{Name: "nobody-registered-it", Round: pr.Round}
	if _, ok := custom.Briefing(); ok {
		t.Error("an unregistered schedule has a briefing")
	}
	if b, ok := (*roundtable.Protocol)(nil).Briefing(); ok || b != (roundtable.Briefing{}) {
		t.Errorf("a nil protocol's briefing: %+v, %v", b, ok)
	}
}

func TestRegisteringAnotherBriefingUnderATakenNamePanics(t *testing.T) {
	roundtable.RegisterBriefing("briefing-dup", roundtable.Briefing{Setting: "a"})
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	roundtable.RegisterBriefing("briefing-dup", roundtable.Briefing{Setting: "b"})
}
