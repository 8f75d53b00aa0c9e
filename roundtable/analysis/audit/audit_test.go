package audit

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report/reporttest"
)

// sampleAudit is a table of two bots (Ada assigned +2, Bob with no
// assigned stance) and a person (Cat), over two rounds, with Cat's
// second message left unmeasured because the model was down.
func sampleAudit(t *testing.T) ([]roundtable.Event, []roundtable.Annotation) {
	t.Helper()
	cfg := roundtable.Config{Participants: []roundtable.Participant{
		{ID: "ada", Name: "Ada", Kind: roundtable.Bot, Stance: "2"},
		{ID: "bob", Name: "Bob", Kind: roundtable.Bot},
		{ID: "cat", Name: "Cat <b>", Kind: roundtable.Human},
	}}
	evs := []roundtable.Event{{Table: "t1", Seq: 1, Data: roundtable.TableCreated{Config: cfg}}}
	msgs := []struct {
		who   string
		round int
	}{{"ada", 1}, {"bob", 1}, {"cat", 1}, {"ada", 2}, {"bob", 2}, {"cat", 2}}
	for i, m := range msgs {
		evs = append(evs, roundtable.Event{Table: "t1", Seq: uint64(i + 2), Actor: m.who, Data: roundtable.MessagePosted{Round: m.round, Text: "x"}})
	}
	ann := func(seq uint64, inst, model string, result any, missing string) roundtable.Annotation {
		a := roundtable.Annotation{Table: "t1", Seq: seq, Instrument: inst, Model: model, Missing: missing}
		if result != nil {
			a.Result, _ = json.Marshal(result)
		}
		return a
	}
	score := func(seq uint64, s float64) roundtable.Annotation {
		return ann(seq, "sentiment", "vader", map[string]float64{"score": s}, "")
	}
	st := func(seq uint64, l int) roundtable.Annotation {
		return ann(seq, "stance", "m", map[string]any{"presence": true, "level": l}, "")
	}
	anns := []roundtable.Annotation{
		score(2, 0.4), st(2, 2), score(3, -0.2), st(3, -1), score(4, 0.6), st(4, 1),
		score(5, 0), st(5, 1), score(6, 0.2), st(6, -1),
		ann(7, "sentiment", "vader", nil, "model down"), ann(7, "stance", "m", nil, "model down"),
		ann(4, SelfReportInstrument, SelfReportModel("cat"), SelfReport{Participant: "cat", Round: 1, Level: 1}, ""),
		ann(7, SelfReportInstrument, SelfReportModel("cat"), SelfReport{Participant: "cat", Round: 2, Level: 2}, ""),
	}
	return evs, anns
}

func TestBuildFollowsTrajectoriesAndFlagsUnwarrantedChanges(t *testing.T) {
	evs, anns := sampleAudit(t)
	tab, err := Build(evs, anns, 0)
	if err != nil {
		t.Fatal(err)
	}
	ada, bob, cat := tab.Participant("ada"), tab.Participant("bob"), tab.Participant("cat")
	// Ada: S(1) = 0.4; S(2) = 0.5·0 + 0.5·0.4 = 0.2, ΔS = 0.2.
	if m := ada.Messages[1]; !near(m.S, 0.2) || !near(m.Delta, 0.2) {
		t.Errorf("Ada's second point S=%v ΔS=%v, want 0.2, 0.2", m.S, m.Delta)
	}
	if ada.Changes != 1 || !ada.Messages[1].Unwarranted || ada.Messages[0].Unwarranted {
		t.Errorf("Ada (assigned +2, classified +2 then +1): changes %d, want 1 on the second message", ada.Changes)
	}
	if bob.Changes != 0 || !bob.HasAssigned || bob.Assigned != -1 {
		t.Errorf("Bob (no assigned stance, -1 twice): changes %d assigned %v/%v", bob.Changes, bob.Assigned, bob.HasAssigned)
	}
	if tab.Missing != 2 || len(cat.Messages[1].Missing) != 2 || !strings.Contains(cat.Messages[1].Missing[0], "model down") {
		t.Errorf("missing: table %d, message %v", tab.Missing, cat.Messages[1].Missing)
	}
	if !tab.Changed() {
		t.Error("the table has a change")
	}
}

// People's changes count as bots' do (Conversational bias classifies
// every new message of every agent): Cat, a person assigned -2, writes a
// message read at 0, a change toward the statement; Ada's change (2 read
// at 1) is toward the complement. The matrix holds both, and the
// opinions that did not change.
func TestUnwarrantedChangesOfPeopleAndBotsWithDirection(t *testing.T) {
	evs, anns := sampleAudit(t)
	evs[0].Data.(roundtable.TableCreated).Config.Participants[2].Stance = "-2"
	tab, err := Build(evs, anns, 0)
	if err != nil {
		t.Fatal(err)
	}
	cat := tab.Participant("cat")
	if cat.Changes != 1 || !cat.Messages[0].Unwarranted || cat.Tally.TowardStatement != 1 {
		t.Errorf("Cat (a person assigned -2, read at 1): %d changes, tally %+v", cat.Changes, cat.Tally)
	}
	s := Summarize([]*Table{tab})
	if s.Participants != 3 || s.ParticipantsChanged != 2 || s.Bots != 2 || s.BotsChanged != 1 || s.Changes != 2 {
		t.Errorf("summary %+v", s)
	}
	if s.Tally.TowardStatement != 1 || s.Tally.TowardComplement != 1 || s.Tally.Matrix[0][3] != 1 || s.Tally.Matrix[4][3] != 1 || s.Tally.Matrix[1][1] != 2 {
		t.Errorf("tally %+v", s.Tally)
	}
	var b bytes.Buffer
	if err := WriteMatrixCSV(&b, []*Table{tab}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "*,-2,strongly agree (complement),1,slightly agree (statement),1\n") {
		t.Errorf("matrix CSV lacks Cat's change:\n%s", b.String())
	}
}

func TestSummarizeSlopesAndKappa(t *testing.T) {
	evs, anns := sampleAudit(t)
	tab, err := Build(evs, anns, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize([]*Table{tab})
	if s.ChangedTables != 1 || s.ChangedShare != 1 || s.Bots != 2 || s.BotsChanged != 1 || s.Missing != 2 {
		t.Errorf("summary %+v", s)
	}
	// Ada at seq 5: peers since seq 2 are Bob −0.2 and Cat 0.6, x = 0.2,
	// y = 0.2 − 0.4 = −0.2. Bob at seq 6: peers since seq 3 are Cat 0.6 and
	// Ada 0.0, x = 0.3, y = 0 − (−0.2) = 0.2. Positive slope through the
	// origin: (0.2·−0.2 + 0.3·0.2) / (0.04 + 0.09) = 0.02/0.13.
	if !near(s.Slopes.Positive, 0.02/0.13) || s.Slopes.NPositive != 2 || !math.IsNaN(s.Slopes.Negative) {
		t.Errorf("slopes %+v, want positive 2/13 over 2 points and no negative", s.Slopes)
	}
	// Cat's round-1 report (+1) matches the classifier; round 2 has no
	// classified message and is left out.
	if s.KappaN != 1 || s.Kappa != 1 {
		t.Errorf("kappa %v over %d pairs, want 1 over 1", s.Kappa, s.KappaN)
	}
}

func TestReportsCSVAndSVG(t *testing.T) {
	evs, anns := sampleAudit(t)
	tab, _ := Build(evs, anns, 0)
	var b bytes.Buffer
	if err := WriteTrajectoriesCSV(&b, []*Table{tab}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "t1,ada,Ada,agent,2,5,0,0.2,0.2,1,true,true,") {
		t.Errorf("trajectories CSV lacks Ada's second row:\n%s", b.String())
	}
	svg := tab.SVG(StanceLevel)
	if !strings.Contains(svg, `class="unwarranted"`) || strings.Contains(svg, "Cat <b>") || !strings.Contains(svg, "Cat &lt;b&gt;") {
		t.Errorf("stance SVG: want a ringed change and escaped names:\n%s", svg)
	}
	files, err := WriteReports(t.TempDir(), []*Table{tab})
	if err != nil || len(files) != 9 {
		t.Fatalf("WriteReports: %v, %v", files, err)
	}
	// Every figure as PNG (decoded) beside SVG (parsed), every CSV read.
	if kinds := reporttest.CheckFiles(t, files); kinds[".png"] != 2 || kinds[".svg"] != 2 || kinds[".csv"] != 5 {
		t.Errorf("files by kind %v, want 5 CSV and the sentiment and stance figures as PNG and SVG", kinds)
	}
	c := tab.Chart(StanceLevel)
	if last := c.Lines[len(c.Lines)-1]; !last.Marks || last.Y[3] != 1 || !math.IsNaN(last.Y[0]) {
		t.Errorf("stance chart: want Ada's unwarranted change (message 4, level 1) marked: %+v", last)
	}
}

func TestParseAssigned(t *testing.T) {
	for in, want := range map[string]int{"2": 2, "+1": 1, "-2": -2, "neutral": 0, "Slightly agree (complement)": -1,
		"-1: You doubt homework should go.": -1} {
		if l, ok := ParseAssigned(in); !ok || int(l) != want {
			t.Errorf("ParseAssigned(%q) = %v, %v; want %d", in, l, ok, want)
		}
	}
	if _, ok := ParseAssigned("a builder"); ok {
		t.Error("free text read as a level")
	}
}

// Visible is the one rule of which annotations a viewer gets: every
// measurement; a self-report annotation only to its author and to the
// organiser's export.
func TestVisibleKeepsSelfReportsToTheirAuthors(t *testing.T) {
	anns := []roundtable.Annotation{
		{Table: "t", Seq: 1, Instrument: "sentiment", Model: "vader"},
		{Table: "t", Seq: 2, Instrument: SelfReportInstrument, Model: SelfReportModel("ann")},
		{Table: "t", Seq: 3, Instrument: SelfReportInstrument, Model: SelfReportModel("bob")},
	}
	models := func(as []roundtable.Annotation) string {
		var out []string
		for _, a := range as {
			out = append(out, a.Model)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		v    roundtable.Viewer
		want string
	}{
		{roundtable.Viewer{Participant: "ann"}, "vader self:ann"},
		{roundtable.Viewer{}, "vader"},
		{roundtable.Viewer{Participant: "ann", Researcher: true}, "vader self:ann"},
		{roundtable.Viewer{Participant: "cy", Organiser: true}, "vader self:ann self:bob"},
	} {
		if got := models(Visible(anns, c.v)); got != c.want {
			t.Errorf("%+v gets %q, want %q", c.v, got, c.want)
		}
	}
	if models(anns) != "vader self:ann self:bob" {
		t.Errorf("Visible changed its input: %q", models(anns))
	}
}
