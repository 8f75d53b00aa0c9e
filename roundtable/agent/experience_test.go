package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// dyadsView is Alice's report at step 3 of a dyads table: at step 1 she
// wrote to Bob, at step 2 Bob wrote to Carol, and now Carol wrote to her.
func dyadsView() roundtable.View {
	sc := &roundtable.Scale{Question: "The river is clean.", Min: -2, Max: 2}
	return roundtable.View{Table: "d1", Self: people[0], Participants: people, Round: 3, Rounds: 10, Phase: roundtable.PhaseSurvey,
		Protocol: "dyads", Briefing: &roundtable.Briefing{History: roundtable.HistoryExperience}, Scale: sc, Seed: 1,
		History: []roundtable.RoundRecord{
			{Round: 1, Messages: []roundtable.Message{{From: "a", To: []string{"b"}, Text: "ALICE-POST"}},
				Surveys: []roundtable.SurveyAnswer{{By: "a", Values: []float64{1}, Reason: "ALICE-THOUGHT"}}},
			{Round: 2, Messages: []roundtable.Message{{From: "b", To: []string{"c"}, Text: "BOB-TO-CAROL"}}},
		},
		Current: roundtable.RoundRecord{Round: 3, Messages: []roundtable.Message{{From: "c", To: []string{"a"}, Text: "CAROL-TO-ALICE"}}},
	}
}

func TestDyadsMemoryHoldsOwnExperiencesOnly(t *testing.T) {
	llm := answers(`{"reasoning":"r","values":[0]}`)
	if _, err := newAgent(llm, Options{}).Act(context.Background(), dyadsView()); err != nil {
		t.Fatal(err)
	}
	p := llm.reqs[0].Messages[1].Content
	for _, want := range []string{"You wrote to Bob: \"ALICE-POST\"", "ALICE-THOUGHT", "Carol wrote to you: \"CAROL-TO-ALICE\""} {
		if !strings.Contains(p, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "BOB-TO-CAROL") {
		t.Errorf("another pair's exchange is in Alice's memory:\n%s", p)
	}
}

func TestDyadsReflectiveMemoryReplacesExperiences(t *testing.T) {
	llm := answers(`{"memory":"SUMMARY-OF-STEP-1"}`, `{"reasoning":"r","values":[0]}`)
	a := newAgent(llm, Options{Memory: MemoryReflective})
	if _, err := a.Act(context.Background(), dyadsView()); err != nil {
		t.Fatal(err)
	}
	if len(llm.reqs) != 2 {
		t.Fatalf("%d requests, want a reflection and the report", len(llm.reqs))
	}
	reflect, report := llm.reqs[0].Messages[1].Content, llm.reqs[1].Messages[1].Content
	if !strings.Contains(reflect, "ALICE-POST") || !strings.Contains(reflect, "Reflect on this experience") {
		t.Errorf("reflection prompt:\n%s", reflect)
	}
	if !strings.Contains(report, "SUMMARY-OF-STEP-1") || strings.Contains(report, "ALICE-POST") || !strings.Contains(report, "CAROL-TO-ALICE") {
		t.Errorf("the report should hold the summary and the post just read, not the old experience:\n%s", report)
	}
}
