package export_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/export"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
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
	organiser := roundtable.Viewer{Researcher: true, Organiser: true}
	if err := export.WriteJSONL(&research, events, export.Options{Pseudonymize: true, Viewer: organiser}); err != nil {
		t.Fatal(err)
	}
	if out := research.String(); !strings.Contains(out, `"voter":"voter-`) || strings.Contains(out, "s3cr3t-key") {
		t.Errorf("the organiser's research export: want voter pseudonyms and no key in\n%s", out)
	}
	var participant bytes.Buffer
	if err := export.WriteJSONL(&participant, events, export.Options{Pseudonymize: true, Viewer: roundtable.Viewer{Participant: "bob"}}); err != nil {
		t.Fatal(err)
	}
	if out := participant.String(); strings.Contains(out, `"voter":"voter-`) {
		t.Errorf("a participant's pseudonymised export keeps voter pseudonyms:\n%s", out)
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

// abstentionLog plays two rounds of a secret-ballot table created with
// sec: ann, bob and cy vote in round 1; cy casts no ballot in round 2.
func abstentionLog(t *testing.T, sec roundtable.Secrecy) []roundtable.Event {
	t.Helper()
	ctx := t.Context()
	store := roundtabletest.NewMemStore()
	clock := roundtabletest.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	var seats []roundtable.Participant
	for _, n := range []string{"ann", "bob", "cy"} {
		seats = append(seats, roundtable.Participant{ID: n, Name: n, Kind: roundtable.Human})
	}
	cfg := roundtable.Config{Rule: vote.Plurality, Rounds: 2, Seed: 3, Participants: seats, Secret: sec}
	tbl, err := roundtable.Create(ctx, store, clock, roundtabletest.SampleTask(), "sec", cfg)
	if err != nil {
		t.Fatal(err)
	}
	do := func(a roundtable.Action) {
		t.Helper()
		clock.Advance(time.Minute)
		if a == nil {
			_, err = tbl.Close(ctx, roundtable.Position{}, roundtable.ClosedDeadline)
		} else {
			err = tbl.Do(ctx, a)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := tbl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 2; r++ {
		do(nil) // the message phase
		do(roundtable.Propose{Actor: "ann", Proposal: roundtable.Proposal{Text: "North"}})
		do(roundtable.Propose{Actor: "bob", Proposal: roundtable.Proposal{Text: "South"}})
		do(nil)
		do(roundtable.Cast{Actor: "ann", Ballot: vote.Ballot{Choice: "A"}})
		do(roundtable.Cast{Actor: "bob", Ballot: vote.Ballot{Choice: "B"}})
		if r == 1 {
			do(roundtable.Cast{Actor: "cy", Ballot: vote.Ballot{Choice: "A"}})
		}
		do(nil)
	}
	evs, err := store.Load(ctx, "sec")
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestParticipantCannotLinkSecretBallots is the attack of a participant
// who has only her own pseudonymised download, in every format, of a
// table whose ballots are secret (with and without research labels) and
// where one person skipped a round's vote: no ballot is tied to anyone,
// and no ballot event carries its actor.
func TestParticipantCannotLinkSecretBallots(t *testing.T) {
	for _, sec := range []roundtable.Secrecy{{Ballots: true, Key: "k"}, {Ballots: true, Research: true, Key: "k"}} {
		events := abstentionLog(t, sec)
		var buf bytes.Buffer
		opt := export.Options{Pseudonymize: true, Viewer: roundtable.Viewer{Participant: "ann"}}
		if err := export.WriteJSONL(&buf, events, opt); err != nil {
			t.Fatal(err)
		}
		var got []roundtable.Event
		for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
			var e roundtable.Event
			if err := e.UnmarshalJSON([]byte(line)); err != nil {
				t.Fatal(err)
			}
			got = append(got, e)
			if w, ok := e.Data.(roundtable.Withheld); ok && w.Type == "ballot_cast" && e.Actor != "" {
				t.Errorf("research %v: a hidden ballot carries its actor %s", sec.Research, e.Actor)
			}
		}
		if links := roundtabletest.LinkBallots(got); len(links) > 0 {
			t.Errorf("research %v: ann's download ties ballots to people: %v", sec.Research, links)
		}
		for _, r := range readSheet(t, events, opt)[1:] {
			if r[2] == "ballot" && r[3] != "(secret)" {
				t.Errorf("research %v: ann's sheet labels a ballot %q", sec.Research, r[3])
			}
		}
		if csv := readCSV(t, events, opt); strings.Contains(fmt.Sprint(csv), "voter-") {
			t.Errorf("research %v: ann's csv labels ballots", sec.Research)
		}
	}
}

// A vote's reason goes with the ballot: in the CSV summary of its
// ballot_cast and in the sheet's reason column.
func TestExportsKeepVoteReasons(t *testing.T) {
	events := sampleLog(t)
	for i, e := range events {
		switch d := e.Data.(type) {
		case roundtable.BallotCast:
			if d.Round == 1 && e.Actor == events[0].Data.(roundtable.TableCreated).Config.Participants[0].ID {
				d.Ballot.Reason = "Trees cool the street."
				events[i].Data = d
			}
		case roundtable.DecisionMade:
			for j, b := range d.Tally.Ballots {
				if d.Round == 1 && b.Voter == events[0].Data.(roundtable.TableCreated).Config.Participants[0].ID {
					d.Tally.Ballots[j].Reason = "Trees cool the street."
				}
			}
		}
	}
	rows := readCSV(t, events, export.Options{Viewer: researcher})
	found := false
	for _, r := range rows {
		found = found || (r[3] == "ballot_cast" && strings.HasSuffix(r[7], " (why: Trees cool the street.)"))
	}
	if !found {
		t.Error("no ballot_cast row gives the reason")
	}
	sheet := readSheet(t, events, export.Options{})
	reasons := 0
	for _, r := range sheet[1:] {
		if r[2] == "ballot" && r[8] == "Trees cool the street." {
			reasons++
		}
	}
	if reasons != 1 {
		t.Errorf("%d sheet rows with the reason, want 1", reasons)
	}
}
