package roundtable_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

func TestCloneEqualsJSONRoundTripAndSharesNothing(t *testing.T) {
	played, err := roundtabletest.PlayTable(t.Context(), roundtabletest.NewMemStore(), roundtabletest.NewClock(t0), "t1", 2)
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]*roundtable.State{"empty": {}, "played": played.Snapshot(), "rich": richState()}
	for name, s := range states {
		t.Run(name, func(t *testing.T) {
			c := s.Clone()
			if !reflect.DeepEqual(c, s) {
				t.Fatalf("clone differs from the original:\n%s\n%s", roundtabletest.MustJSON(t, c), roundtabletest.MustJSON(t, s))
			}
			var viaJSON roundtable.State
			if err := json.Unmarshal([]byte(roundtabletest.MustJSON(t, s)), &viaJSON); err != nil {
				t.Fatal(err)
			}
			if g, w := roundtabletest.MustJSON(t, c), roundtabletest.MustJSON(t, &viaJSON); g != w {
				t.Fatalf("clone encodes as\n%s\nJSON round trip as\n%s", g, w)
			}
			shared(t, "State", reflect.ValueOf(c).Elem(), reflect.ValueOf(s).Elem())
		})
	}
}

// TestRichStateSetsEveryField keeps richState complete, so that a field
// added to State and forgotten in Clone makes the test above fail.
func TestRichStateSetsEveryField(t *testing.T) {
	zeroFields(t, "State", reflect.ValueOf(richState()).Elem())
}

// shared reports every slice, map or pointer that a and b have in common.
func shared(t *testing.T, path string, a, b reflect.Value) {
	t.Helper()
	switch a.Kind() {
	case reflect.Pointer, reflect.Map:
		if !a.IsNil() && a.UnsafePointer() == b.UnsafePointer() {
			t.Errorf("%s is shared", path)
		}
	case reflect.Slice:
		if a.Cap() > 0 && a.UnsafePointer() == b.UnsafePointer() {
			t.Errorf("%s is shared", path)
		}
	}
	switch a.Kind() {
	case reflect.Pointer:
		if !a.IsNil() && !b.IsNil() {
			shared(t, path, a.Elem(), b.Elem())
		}
	case reflect.Slice:
		for i := range min(a.Len(), b.Len()) {
			shared(t, path+"[]", a.Index(i), b.Index(i))
		}
	case reflect.Map:
		for _, k := range a.MapKeys() {
			if bv := b.MapIndex(k); bv.IsValid() {
				shared(t, path+"[k]", a.MapIndex(k), bv)
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() {
				shared(t, path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i))
			}
		}
	}
}

// zeroFields reports every exported field under v that is zero or empty.
func zeroFields(t *testing.T, path string, v reflect.Value) {
	t.Helper()
	if v.IsZero() || (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.Len() == 0 {
		t.Errorf("%s is empty in richState", path)
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		zeroFields(t, path, v.Elem())
	case reflect.Slice:
		zeroFields(t, path+"[0]", v.Index(0))
	case reflect.Map:
		iter := v.MapRange()
		iter.Next()
		zeroFields(t, path+"[k]", iter.Value())
	case reflect.Struct:
		if v.Type().PkgPath() == "time" {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				zeroFields(t, path+"."+v.Type().Field(i).Name, v.Field(i))
			}
		}
	}
}

func richState() *roundtable.State {
	who := roundtable.Participant{ID: "p1", Name: "P1", Kind: roundtable.Bot, Background: "b", Goal: "g", Stance: "s", Agent: "utility", Platform: "discord:1",
		Parts: []roundtable.Part{roundtable.PartSpeak}}
	prop := roundtable.Proposal{Text: "split", Data: json.RawMessage(`[[1,2],[3,4]]`)}
	cand := roundtable.Candidate{ID: "A", Proposal: prop, Key: "k", Proposers: []string{"p1"}, Incumbent: true}
	ballot := vote.Ballot{Voter: "p1", Abstain: true, Choice: "A", Scores: map[string]int{"A": 5}, Ranking: []string{"A"},
		Points: map[string]int{"A": 1}, Approve: []string{"A"}, Reason: "best"}
	rej := vote.Rejection{Voter: "p1", Reason: "late"}
	usage := roundtable.Usage{Calls: 1, PromptTokens: 2, CompletionTokens: 3, CachedTokens: 4, LatencyMS: 5, Retries: 6, Model: "m-1"}
	tally := roundtable.Tally{Rule: vote.Majority, Winner: "A", Totals: map[string]json.Number{"A": "1"}, Tied: []string{"A"},
		Ranking: []string{"A"}, Ballots: []vote.Ballot{ballot}, Rejected: []vote.Rejection{rej}, Counted: 1, Abstained: 1,
		Participants: 1, Reason: "won"}
	round := roundtable.RoundRecord{Round: 1,
		Messages: []roundtable.Message{{Seq: 3, From: "p1", To: []string{"p2"}, Text: "hi", Private: true,
			Self:    &roundtable.SelfModel{Description: "d", Priorities: "p", Criteria: []string{"c"}, Source: "s"},
			Persona: &roundtable.OpinionPersona{Level: 1, Text: "p", Signal: &roundtable.OpinionSignal{Classifier: "c", Present: true, Level: -1, Missing: "m"}}}},
		Surveys:    []roundtable.SurveyAnswer{{By: "p1", Values: []float64{1}, Reason: "so", Persona: &roundtable.OpinionPersona{Level: 1, Text: "p", Signal: &roundtable.OpinionSignal{Classifier: "c", Present: true, Level: 1, Missing: "m"}}}},
		Pair:       []string{"p1", "p2"},
		Proposals:  []roundtable.ProposalRecord{{By: "p1", Proposal: prop, Reasoning: "why"}},
		Skipped:    []string{"p2"},
		Failures:   []roundtable.Failure{{Participant: "p2", Phase: roundtable.PhaseVote, Kind: "format", Reason: "bad"}},
		Candidates: []roundtable.Candidate{cand}, Rejected: []vote.Rejection{rej}, Tally: &tally,
		Decision: &cand, Usage: map[string]roundtable.Usage{"p1": usage}}
	return &roundtable.State{ID: "t1",
		Config: roundtable.Config{Title: "T", Task: roundtable.TaskSpec{Kind: "exchange", Topic: "x", Params: map[string]string{"preset": "uniform"},
			Private: map[string]string{"rating": "4"}},
			Rule: vote.Majority, Tie: "random", Quorum: 2, Rounds: 3, EarlyStop: roundtable.StopFirst, Mode: roundtable.Live, Seed: 9,
			Durations:    roundtable.Durations{Message: 1, Proposal: 2, Vote: 3},
			Participants: []roundtable.Participant{who}, Labels: map[string]string{"platform": "web"}, Protocol: richProtocol(),
			Audit:  &roundtable.AuditSpec{Instruments: []string{"stance"}, Statement: "S", Complement: "C", SelfReport: true},
			Secret: roundtable.Secrecy{Ballots: true, Research: true, Key: "k"},
			Provenance: &roundtable.Provenance{Software: roundtable.Software{Version: "v1", Revision: "abc", Modified: true},
				Agents: map[string]roundtable.AgentProvenance{"p1": {Endpoint: "e", Model: "m", Temperature: new(0.5), MaxTokens: 9,
					Memory: "window", Window: 2, ContextChars: 100, Template: "t", PersonaSignal: "s", PersonaSignalVersion: "v"}}},
			Start: roundtable.Start{When: roundtable.StartAt, Seats: 2, At: t0, People: 1}},
		Created: t0, Started: t0, Updated: t0, Seq: 12, Status: roundtable.StatusRunning, Participants: []roundtable.Participant{who},
		Left: []string{"p9"}, Round: 1, Phase: roundtable.PhaseVote, Deadline: t0, Closed: true, Acted: map[string]bool{"p1": true},
		Latest: map[string]roundtable.Proposal{"p1": prop}, Ballots: map[string]vote.Ballot{"p1": ballot},
		Candidates: []roundtable.Candidate{cand}, Decision: &cand, Rounds: []roundtable.RoundRecord{round},
		Output: &cand, EndReason: "rounds", Keys: roundtable.KeySet{1}, Step: 1, Turn: []string{"p1"}, Spoken: []string{"p2", "p1"},
		Past: &roundtable.Past{Letters: map[string]string{"k": "A"}, Used: map[string]bool{"A": true}, Speaker: "p1"}, Archived: 1}
}

func richProtocol() *roundtable.Protocol {
	step := roundtable.Step{Phase: roundtable.PhaseSurvey, Speakers: roundtable.SpeakPair,
		Scale: &roundtable.Scale{Question: "q", Min: -2, Max: 2, Step: 1, Labels: []string{"l"}, Items: []string{"i"}}}
	return &roundtable.Protocol{Name: "p", Round: []roundtable.Step{step}, Final: []roundtable.Step{step},
		Stop: roundtable.StopRule{Kind: roundtable.StopConvergence, Tolerance: 0.1}, Params: map[string]string{"a": "1"}}
}

// BenchmarkStateClone copies the state of a played sample table of 10 and
// 100 rounds, by hand (Clone) and by the JSON round trip it replaced.
func BenchmarkStateClone(b *testing.B) {
	for _, rounds := range []int{10, 100} {
		tbl, err := roundtabletest.PlayTable(b.Context(), roundtabletest.NewMemStore(), roundtabletest.NewClock(t0), "t1", rounds)
		if err != nil {
			b.Fatal(err)
		}
		s := tbl.Snapshot()
		b.Run(fmt.Sprintf("R=%d/how=copy", rounds), func(b *testing.B) {
			for b.Loop() {
				s.Clone()
			}
		})
		b.Run(fmt.Sprintf("R=%d/how=json", rounds), func(b *testing.B) {
			for b.Loop() {
				var c roundtable.State
				if err := json.Unmarshal([]byte(roundtabletest.MustJSON(b, s)), &c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
