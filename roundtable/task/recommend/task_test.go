package recommend

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

func newTinyTask(t *testing.T) *Task {
	t.Helper()
	ds, err := Load(writeFiles(t, tinyFiles()))
	if err != nil {
		t.Fatal(err)
	}
	return NewTask(ds, Case{User: 2, Movie: 1, Rating: 3})
}

func TestNormalizeAcceptsWholeRatings(t *testing.T) {
	task := newTinyTask(t)
	tests := []struct {
		name string
		p    roundtable.Proposal
		want int
	}{
		{"data object", roundtable.Proposal{Data: json.RawMessage(`{"rating": 4}`)}, 4},
		{"data wins over text", roundtable.Proposal{Text: "rating 2", Data: json.RawMessage(`{"rating":5,"why":"fan"}`)}, 5},
		{"data bare number", roundtable.Proposal{Data: json.RawMessage(`3`)}, 3},
		{"data whole float", roundtable.Proposal{Data: json.RawMessage(`{"rating": 4.0}`)}, 4},
		{"null data reads text", roundtable.Proposal{Text: "1", Data: json.RawMessage(`null`)}, 1},
		{"bare text", roundtable.Proposal{Text: " 5 "}, 5},
		{"canonical text", roundtable.Proposal{Text: "rating 4"}, 4},
		{"colon text", roundtable.Proposal{Text: "Rating: 2"}, 2},
		{"out of five", roundtable.Proposal{Text: "3/5"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := task.Normalize(tt.p)
			want := RatingProposal(tt.want)
			if err != nil || got.Text != want.Text || string(got.Data) != string(want.Data) {
				t.Fatalf("Normalize = %+v, %v; want %+v", got, err, want)
			}
			if again, err := task.Normalize(roundtable.Proposal{Text: got.Text}); err != nil || task.Key(again) != task.Key(got) {
				t.Errorf("normalized text %q does not round-trip: %v", got.Text, err)
			}
		})
	}
}

func TestNormalizeRejectsOtherRatings(t *testing.T) {
	task := newTinyTask(t)
	tests := []struct {
		name string
		p    roundtable.Proposal
		want string
	}{
		{"zero", roundtable.Proposal{Data: json.RawMessage(`{"rating": 0}`)}, "rating 0 is out of range"},
		{"six", roundtable.Proposal{Text: "6"}, "rating 6 is out of range"},
		{"half star", roundtable.Proposal{Data: json.RawMessage(`{"rating": 3.5}`)}, "rating 3.5 is not a whole number"},
		{"word", roundtable.Proposal{Text: "four"}, `rating "four" is not a number`},
		{"string in data", roundtable.Proposal{Data: json.RawMessage(`{"rating": "4"}`)}, `rating "\"4\"" is a string, not a number`},
		{"missing key", roundtable.Proposal{Data: json.RawMessage(`{"score": 4}`)}, `the data has no "rating"`},
		{"broken json", roundtable.Proposal{Data: json.RawMessage(`{"rating": 4`)}, "the data is not a JSON object"},
		{"empty", roundtable.Proposal{Text: "  "}, "the proposal is empty"},
		{"nan", roundtable.Proposal{Text: "NaN"}, `rating "nan" is not a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := task.Normalize(tt.p)
			if roundtable.ErrorCode(err) != roundtable.Invalid || !strings.HasPrefix(roundtable.ErrorMessage(err), tt.want) ||
				!strings.HasSuffix(err.Error(), ratingForms) {
				t.Fatalf("Normalize error = %v, want Invalid starting %q and ending with the accepted forms", err, tt.want)
			}
		})
	}
}

func TestTaskBriefsAndSchema(t *testing.T) {
	task := newTinyTask(t)
	if task.Kind() != "recommendation" {
		t.Errorf("Kind = %q", task.Kind())
	}
	if b := task.Brief(); !strings.Contains(b, `"Toy Story (1995)"`) || !strings.Contains(b, "1 to 5") {
		t.Errorf("Brief lacks the movie or the scale:\n%s", b)
	}
	tables := task.Tables()
	for i, want := range []string{tables.BasicInfo, tables.UserHistory, tables.MovieHistory, tables.BasicInfo} {
		if got := task.PrivateBrief(i); !strings.HasSuffix(got, want) {
			t.Errorf("PrivateBrief(%d) = %q, want table %d", i, got, i%3)
		}
	}
	name, schema := task.ProposalSchema()
	var s struct {
		Properties struct {
			Rating struct {
				Type             string
				Minimum, Maximum float64
			}
		}
		Required []string
	}
	if err := json.Unmarshal(schema, &s); err != nil || name != "proposal_recommendation" ||
		s.Properties.Rating.Type != "integer" ||
		s.Properties.Rating.Minimum != 1 || s.Properties.Rating.Maximum != 5 || !slices.Equal(s.Required, []string{"rating"}) {
		t.Errorf("ProposalSchema = %s, %s (%v)", name, schema, err)
	}
	if task.Key(RatingProposal(4)) != "4" {
		t.Errorf("Key(rating 4) = %q, want 4", task.Key(RatingProposal(4)))
	}
}

func TestCasesAreDeterministicSamplesOfTest(t *testing.T) {
	ds := loadSynthetic(t, 40, 50, 5)
	a, b := Cases(ds, 10, 3), Cases(ds, 10, 3)
	if len(a) != 10 || !slices.Equal(a, b) {
		t.Fatalf("Cases gave %v then %v", a, b)
	}
	if slices.Equal(a, Cases(ds, 10, 4)) {
		t.Error("another seed gave the same cases")
	}
	if all := Cases(ds, 0, 3); len(all) != len(ds.Test) {
		t.Errorf("Cases(0) gave %d of %d", len(all), len(ds.Test))
	}
	for _, c := range a {
		if !slices.Contains(ds.Test, Rating{User: c.User, Movie: c.Movie, Rating: c.Rating, Time: timeOf(ds.Test, c)}) {
			t.Errorf("case %+v is not in u1.test", c)
		}
	}
}

func timeOf(rs []Rating, c Case) int64 {
	for _, r := range rs {
		if r.User == c.User && r.Movie == c.Movie {
			return r.Time
		}
	}
	return -1
}
