package web_test

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// modelMarker is planted in every mental model of self, so a leak shows.
const modelMarker = "MODEL-7731"

// modeller is a panel agent that restates a mental model of self with
// every message, as the panel's agents do, and rates every item at 0.5.
type modeller struct{}

func (modeller) Act(ctx context.Context, v roundtable.View) (roundtable.Action, error) {
	switch v.Phase {
	case roundtable.PhaseMessage:
		return roundtable.Say{Text: "Ann is solid; Ben less so.", Self: &roundtable.SelfModel{Description: modelMarker + " a careful reviewer",
			Priorities: "evidence over charm", Criteria: []string{"track record " + modelMarker, "clarity"}, Source: "offline-vocabulary"}}, nil
	case roundtable.PhaseSurvey:
		vals := make([]float64, v.Scale.Values())
		for i := range vals {
			vals[i] = 0.5
		}
		return roundtable.Report{Values: vals}, nil
	}
	return bottest.Scribe{}.Act(ctx, v)
}

// A live panel table on the web channel, over real HTTP: its agent
// restates a mental model of self each round. While the table runs the
// models reach nobody: not the room, not the dashboard, not the log, the
// organiser's named download included. Once it has ended the organiser's
// dashboard shows them and the organiser's named download carries them;
// a participant's views and the pseudonymised download still do not.
func TestPanelSelfModelsShowOnlyToTheOrganiserAfterTheEnd(t *testing.T) {
	h := newHarness(t)
	clock := bottest.NewClock(time.Now())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	svc := bottest.Service(h.Platform(), h.db, clock, func(roundtable.Participant, roundtable.Task) (roundtable.Agent, error) { return modeller{}, nil })
	go func() { done <- svc.Run(ctx) }()
	defer func() { cancel(); <-done }()
	d := &webDriver{t: t, h: h}
	bob := func(path string) string { return getAs(t, h, h.user(bottest.Bob).http, path) }

	room := d.start(map[string]string{"preset": bottest.PanelPreset})
	id := tableOf(t, h.db)
	during := false
	for {
		st := settled(t, d, id)
		if st.Status == roundtable.StatusEnded {
			break
		}
		if st.Round >= 1 && st.Phase == roundtable.PhaseSurvey { // the round's message phase has closed
			during = true
			for what, page := range map[string]string{
				"the organiser's dashboard":      d.get("/r/" + room + "/dashboard"),
				"the organiser's named download": d.get("/r/" + room + "/log?names=keep"),
				"Bob's dashboard":                bob("/r/" + room + "/dashboard"),
				"Bob's download":                 bob("/r/" + room + "/log"),
			} {
				if strings.Contains(page, modelMarker) {
					t.Errorf("round %d: %s shows a mental model of self while the table runs", st.Round, what)
				}
			}
			if page := d.get("/r/" + room + "/dashboard"); !strings.Contains(page, "private until the table ends") {
				t.Errorf("round %d: the organiser's dashboard does not say when the models show", st.Round)
			}
		}
		clock.Advance(2 * time.Minute) // people do not act: every phase closes at its deadline
	}
	if !during {
		t.Fatal("the table ended before any survey phase was seen")
	}
	dash := d.get("/r/" + room + "/dashboard")
	for _, want := range []string{`id="self-models"`, modelMarker + " a careful reviewer", "evidence over charm", "track record " + modelMarker + "; clarity", "<td>Scribe</td>"} {
		if !strings.Contains(dash, want) {
			t.Errorf("the organiser's dashboard after the end lacks %q", want)
		}
	}
	// a panel never votes: its dashboard has no rule, decisions or ballots
	for _, absent := range []string{"Decisions per round", "<h2>Ballots</h2>", "Agreement per round", " · rule "} {
		if strings.Contains(dash, absent) {
			t.Errorf("the dashboard of a panel, which never votes, shows %q", absent)
		}
	}
	if dl := d.get("/r/" + room + "/log?names=keep"); !strings.Contains(dl, `"self_model"`) || !strings.Contains(dl, modelMarker) {
		t.Errorf("the organiser's named download after the end carries no models:\n%.600s", dl)
	}
	for what, page := range map[string]string{
		"the pseudonymised download": d.get("/r/" + room + "/log"),
		"Bob's dashboard":            bob("/r/" + room + "/dashboard"),
		"Bob's download":             bob("/r/" + room + "/log"),
	} {
		if strings.Contains(page, modelMarker) {
			t.Errorf("%s shows a mental model of self after the end", what)
		}
	}
	if !strings.Contains(bob("/r/"+room+"/dashboard"), "the organiser sees them here once the table has ended") {
		t.Error("Bob's dashboard does not say who sees the models")
	}
	for _, p := range h.Posts(room) {
		if strings.Contains(p.Text, modelMarker) {
			t.Errorf("a mental model of self reached the room: %q", p.Text)
		}
	}
}

// settled waits until the table has ended or its agent has acted in the
// open phase, and returns its state.
func settled(t *testing.T, d *webDriver, id string) *roundtable.State {
	t.Helper()
	var st *roundtable.State
	d.wait("the agent to act", func() bool {
		evs, err := d.h.db.Load(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if st, err = roundtable.Replay(evs); err != nil {
			t.Fatal(err)
		}
		return st.Status == roundtable.StatusEnded || st.Status == roundtable.StatusRunning &&
			!slices.ContainsFunc(st.Pending(), func(p roundtable.Participant) bool { return p.Kind == roundtable.Bot })
	})
	return st
}

// getAs fetches path with c and returns its body.
func getAs(t *testing.T, h *harness, c *http.Client, path string) string {
	t.Helper()
	base, err := h.base(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s\n%s", path, resp.Status, b)
	}
	return string(b)
}
