package export_test

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/export"
)

// secretSample is the sample log of a table recorded with sec.
func secretSample(t *testing.T, sec roundtable.Secrecy) []roundtable.Event {
	events := slices.Clone(sampleLog(t))
	d := events[0].Data.(roundtable.TableCreated)
	d.Config.Secret = sec
	events[0].Data = d
	return events
}

func TestSecretTableExportsNoBallotWithANameOrKey(t *testing.T) {
	events := secretSample(t, roundtable.Secrecy{Ballots: true, Research: true, Key: "s3cr3t-key"})
	var names bytes.Buffer
	if err := export.WriteJSONL(&names, events, export.Options{}); err != nil {
		t.Fatal(err)
	}
	decided := 0
	for _, line := range strings.Split(strings.TrimSpace(names.String()), "\n") {
		var e roundtable.Event
		if err := e.UnmarshalJSON([]byte(line)); err != nil {
			t.Fatal(err)
		}
		switch d := e.Data.(type) {
		case roundtable.BallotCast:
			if d.Ballot.Choice != "" {
				t.Errorf("export with names: %s's ballot shows %q", e.Actor, d.Ballot.Choice)
			}
		case roundtable.DecisionMade:
			decided++
			for _, b := range d.Tally.Ballots {
				if b.Voter != "" {
					t.Errorf("export with names: a tally ballot names %s", b.Voter)
				}
			}
		}
	}
	if decided != 2 || strings.Contains(names.String(), "s3cr3t-key") {
		t.Errorf("%d decisions (want 2), or the key leaked", decided)
	}
	var sheet bytes.Buffer
	if err := export.WriteCSV(&sheet, events, export.Options{}); err != nil {
		t.Fatal(err)
	}
	if out := sheet.String(); strings.Contains(out, `""voter"":""alice"",""choice`) || strings.Contains(out, "s3cr3t-key") {
		t.Errorf("csv export with names links a voter to a ballot or shows the key")
	}
	var research bytes.Buffer
	if err := export.WriteJSONL(&research, events, export.Options{Pseudonymize: true}); err != nil {
		t.Fatal(err)
	}
	if out := research.String(); !strings.Contains(out, `"voter":"voter-`) || strings.Contains(out, "s3cr3t-key") {
		t.Errorf("research export: want voter pseudonyms and no key in\n%s", out)
	}
}

func TestSheetHasOneRowPerProposalAndBallot(t *testing.T) {
	rows := readSheet(t, sampleLog(t), export.Options{})
	if !slices.Equal(rows[0], export.SheetHeader()) {
		t.Fatalf("header %v", rows[0])
	}
	var props, ballots int
	for _, r := range rows[1:] {
		switch r[2] {
		case "proposal":
			props++
		case "ballot":
			ballots++
			if r[1] == "1" && r[3] == "Alice Smith" && (r[4] != "A" || r[5] != "Plant trees" || r[7] != "yes") {
				t.Errorf("Alice's ballot row %v: want A, Plant trees, won", r)
			}
		}
	}
	if props != 6 || ballots != 8 {
		t.Errorf("%d proposal and %d ballot rows over two rounds, want 6 and 8:\n%v", props, ballots, rows)
	}
}

func TestSheetPseudonymisesAndHidesSecretVoters(t *testing.T) {
	for _, r := range readSheet(t, sampleLog(t), export.Options{Pseudonymize: true})[1:] {
		if r[3] == "Alice Smith" || r[3] == "Bob Jones" {
			t.Errorf("pseudonymised sheet names %s: %v", r[3], r)
		}
	}
	for _, r := range readSheet(t, secretSample(t, roundtable.Secrecy{Ballots: true}), export.Options{})[1:] {
		if r[2] == "ballot" && r[3] != "(secret)" {
			t.Errorf("secret ballot row names its voter: %v", r)
		}
	}
}

func readSheet(t *testing.T, events []roundtable.Event, opt export.Options) [][]string {
	t.Helper()
	var buf bytes.Buffer
	if err := export.WriteSheet(&buf, events, opt); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestPseudonymsDoNotFollowSeatOrder(t *testing.T) {
	seats := []roundtable.Participant{}
	for _, n := range []string{"ann", "bob", "cy", "dee", "eve", "fay"} {
		seats = append(seats, roundtable.Participant{ID: "web:" + n, Name: n, Kind: roundtable.Human})
	}
	created := roundtable.Event{Table: "t", Seq: 1, Data: roundtable.TableCreated{Config: roundtable.Config{
		Rule: "plurality", Rounds: 1, Participants: seats, Secret: roundtable.Secrecy{Key: "0123456789abcdef"}}}}
	order := func() []string {
		d := export.Pseudonymize([]roundtable.Event{created})[0].Data.(roundtable.TableCreated)
		var out []string
		for _, p := range d.Config.Participants {
			out = append(out, p.ID)
		}
		return out
	}
	got := order()
	if slices.Equal(got, []string{"human-1", "human-2", "human-3", "human-4", "human-5", "human-6"}) {
		t.Errorf("pseudonyms follow seat order: %v", got)
	}
	if !slices.Equal(got, order()) {
		t.Errorf("pseudonyms are not stable: %v then %v", got, order())
	}
}
