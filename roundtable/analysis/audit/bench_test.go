package audit

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// benchTable is a table of 4 participants with 25 rounds of messages,
// each annotated with sentiment and stance.
func benchTable(id string) ([]roundtable.Event, []roundtable.Annotation) {
	var ps []roundtable.Participant
	for i := range 4 {
		ps = append(ps, roundtable.Participant{ID: fmt.Sprint("p", i), Name: fmt.Sprint("P", i), Kind: roundtable.Bot, Stance: "1"})
	}
	evs := []roundtable.Event{{Table: id, Seq: 1, Data: roundtable.TableCreated{Config: roundtable.Config{Participants: ps}}}}
	var anns []roundtable.Annotation
	for r := 1; r <= 25; r++ {
		for i := range 4 {
			seq := uint64(len(evs) + 1)
			evs = append(evs, roundtable.Event{Table: id, Seq: seq, Actor: fmt.Sprint("p", i), Data: roundtable.MessagePosted{Round: r, Text: "x"}})
			sres, _ := json.Marshal(map[string]float64{"score": float64((r*7+i*3)%11-5) / 5})
			tres, _ := json.Marshal(map[string]any{"presence": true, "level": (r+i)%5 - 2})
			anns = append(anns, roundtable.Annotation{Table: id, Seq: seq, Instrument: "sentiment", Model: "vader", Result: sres},
				roundtable.Annotation{Table: id, Seq: seq, Instrument: "stance", Model: "m", Result: tres})
		}
	}
	return evs, anns
}

// BenchmarkBuildAndSummarize audits 100 tables of 100 messages each.
func BenchmarkBuildAndSummarize(b *testing.B) {
	type tab struct {
		evs  []roundtable.Event
		anns []roundtable.Annotation
	}
	var in []tab
	for i := range 100 {
		evs, anns := benchTable(fmt.Sprint("t", i))
		in = append(in, tab{evs, anns})
	}
	b.ResetTimer()
	for b.Loop() {
		var ts []*Table
		for _, t := range in {
			a, err := Build(t.evs, t.anns, 0)
			if err != nil {
				b.Fatal(err)
			}
			ts = append(ts, a)
		}
		_ = Summarize(ts)
	}
}
