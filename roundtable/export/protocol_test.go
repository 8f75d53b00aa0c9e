package export_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/export"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// A dyads table of two people: the drawn pair and turn name them, and
// pseudonymisation replaces them there too; the CSV places surveys and
// private messages in their phases.
func TestProtocolLogExportsAndPseudonymises(t *testing.T) {
	events := dyadsLog(t)
	var buf bytes.Buffer
	if err := export.WriteJSONL(&buf, events, export.Options{Pseudonymize: true}); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); strings.Contains(out, "slack:U") || strings.Contains(out, "Una") {
		t.Errorf("the pseudonymised export names a person:\n%s", out)
	}
	buf.Reset()
	// Survey answers are private: an export with names of the ended table
	// (a researcher's) holds them.
	if err := export.WriteCSV(&buf, events, export.Options{Viewer: roundtable.Viewer{Researcher: true}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{",survey,[1]", ",private,note to self"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("CSV lacks %q:\n%s", want, buf.String())
		}
	}
}

// dyadsLog is the log of a dyads table of two people, Una and Vic: the
// drawn pair's message, the listener's survey answer (1, slightly agree
// with the statement), and each one's private message at the end.
func dyadsLog(t *testing.T) []roundtable.Event {
	t.Helper()
	ctx := context.Background()
	st := roundtabletest.NewMemStore()
	cfg := roundtable.Config{Rule: vote.Plurality, Rounds: 1, Seed: 3, Task: roundtable.TaskSpec{Kind: "text", Topic: "claim"},
		Protocol: &roundtable.Protocol{Round: []roundtable.Step{{Phase: roundtable.PhaseMessage, Speakers: roundtable.SpeakPair},
			{Phase: roundtable.PhaseSurvey, Speakers: roundtable.SpeakListener, Scale: roundtable.StanceScale("claim")}},
			Final: []roundtable.Step{{Phase: roundtable.PhasePrivate}}},
		Participants: []roundtable.Participant{{ID: "slack:U1", Name: "Una", Kind: roundtable.Human}, {ID: "slack:U2", Name: "Vic", Kind: roundtable.Human}}}
	tb, err := roundtable.Create(ctx, st, roundtabletest.NewClock(time.Unix(0, 0)), roundtable.TextTask{Topic: "claim"}, "t", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Start(ctx); err != nil {
		t.Fatal(err)
	}
	pair := tb.Snapshot().Current().Pair
	steps := []roundtable.Action{roundtable.Say{Actor: pair[0], Text: "true"}, nil,
		roundtable.Report{Actor: pair[1], Values: []float64{1}}, nil,
		roundtable.Say{Actor: "slack:U1", Text: "note to self"}, roundtable.Say{Actor: "slack:U2", Text: "mine"}, nil}
	for _, a := range steps {
		if a == nil {
			if _, err := tb.Close(ctx, roundtable.Position{}, roundtable.ClosedAllActed); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := tb.Do(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	events, err := st.Load(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// The spreadsheet holds every survey answer its reader may see: the
// organiser's has the listener's answer, with the item and the level's
// name; an onlooker's has none.
func TestSheetHoldsTheSurveyAnswers(t *testing.T) {
	events := dyadsLog(t)
	var surveys [][]string
	for _, r := range readSheet(t, events, export.Options{Viewer: roundtable.Viewer{Organiser: true}})[1:] {
		if r[2] == "survey" {
			surveys = append(surveys, r)
		}
	}
	if len(surveys) != 1 || surveys[0][4] != "claim" || surveys[0][9] != "1 (slightly agree with the statement)" ||
		(surveys[0][3] != "Una" && surveys[0][3] != "Vic") {
		t.Errorf("the organiser's sheet has survey rows %q, want the listener's answer 1 on the claim", surveys)
	}
	for _, r := range readSheet(t, events, export.Options{})[1:] {
		if r[2] == "survey" {
			t.Errorf("an onlooker's sheet shows a survey answer: %q", r)
		}
	}
}
