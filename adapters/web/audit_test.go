package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
	rtvote "github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// judge answers the stance classifier: an opinion, slightly for the
// statement, from the agents' messages (they speak as "<name> here"), and
// neutral from people's.
func judge(ctx context.Context, r *openaitest.Request) openaitest.Reply {
	text := ""
	if n := len(r.Messages); n > 0 {
		text = r.Messages[n-1].Content
	}
	switch r.SchemaName {
	case "opinion_presence":
		return openaitest.JSON(map[string]string{"reasoning": "scripted", "label": "yes"})
	case "opinion_signal":
		l := "neutral"
		if strings.Contains(text, " here:") {
			l = "strongly agree (complement)"
		}
		return openaitest.JSON(map[string]string{"reasoning": "scripted", "label": l})
	}
	return openaitest.Responder{}.Handle(ctx, r)
}

// auditedService is a service whose bot agents (the first assigned to
// agree strongly with the statement) ask the fake OpenAI server, and
// whose audit measures sentiment offline and stance with the same server.
func auditedService(t *testing.T, p bot.Platform, db *store.DB, url string, clock bot.Clock, agents ...string) *bot.Service {
	llm := openai.New(openai.Config{Name: "fake", BaseURL: url, Model: "test-model"})
	sp, err := prose.NewSplitter()
	if err != nil {
		t.Fatal(err)
	}
	v := sentiment.NewVader()
	cfg := bot.Config{
		Defaults:      roundtable.Config{Rule: rtvote.Plurality, Rounds: 2, Mode: roundtable.Sealed},
		Agents:        map[string]roundtable.Participant{},
		DefaultAgents: agents,
	}
	for i, name := range agents {
		cfg.Agents[name] = roundtable.Participant{ID: "agent:" + strings.ToLower(name), Name: name, Kind: roundtable.Bot, Agent: "llm"}
		if i == 0 {
			cfg.Agents[name] = roundtable.Participant{ID: "agent:" + strings.ToLower(name), Name: name, Kind: roundtable.Bot, Agent: "llm", Stance: "2"}
		}
	}
	deps := bot.Deps{Store: db, Clock: clock,
		Task: func(spec roundtable.TaskSpec, _ int) (roundtable.Task, error) {
			return roundtable.TextTask{Topic: spec.Topic}, nil
		},
		Agent: func(_ roundtable.Participant, task roundtable.Task) (roundtable.Agent, error) {
			return agent.New(llm, task, agent.Options{}), nil
		},
		Audit: bot.Auditing{Store: db, Instruments: func(spec roundtable.AuditSpec) ([]analysis.Instrument, error) {
			return []analysis.Instrument{
				analysis.Sentiment(v, sentiment.Analyzer{Split: sp, Scorer: v}),
				analysis.Stance(stance.Classifier{Statement: spec.Statement, Labeler: &label.Sampler{LLM: llm, Endpoint: "fake", K: 3}}),
			}, nil
		}},
	}
	return bot.New(cfg, deps, p)
}

// TestAuditedTableOnTheWeb runs an audited table in the web channel over
// real HTTP: two people and two LLM agents on the fake OpenAI server. Every
// message is annotated in the background; each round ends with the
// self-report survey: Bob answers round 1 with one click and Alice does
// not, so the survey closes at its deadline (the round does not wait for
// her); both answer round 2. The answers are SurveyAnswered events of the log: the
// organiser's download holds everyone's, Bob's his own only, and the
// dashboard shows its viewer's own. The dashboard shows the trajectories
// and flags Ada, whose stance left the one she was assigned; the audit
// downloads pseudonymised.
func TestAuditedTableOnTheWeb(t *testing.T) {
	srv := openaitest.NewServer(judge)
	defer srv.Close()
	h := newHarness(t)
	db := h.db // the web channel reads the tables the bot keeps
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	// The agents' model calls end at their phase's deadline on the real
	// clock, so the test clock starts from it; phases close by the test
	// clock alone.
	clock := bottest.NewClock(time.Now())
	go func() { done <- auditedService(t, h.Platform(), db, srv.URL(), clock, "Ada", "Bo").Run(ctx) }()
	defer func() { cancel(); <-done }()
	d := &webDriver{t: t, h: h}

	room := d.start(map[string]string{"topic": "Should homework go?", "audit": "sentiment,stance",
		"audit_statement": "Homework should be abolished.", "self_report": "yes", "vote": "2m"})
	d.play(room, 1)
	ask := d.post(room, "**Round 1 of 2: survey phase")
	d.do(func(ctx context.Context) error {
		return h.Click(ctx, bottest.Bob, room, ask.ID, controlID(t, ask, "slightly agree"))
	})
	d.sees(bottest.Bob, "Recorded privately for round 1: slightly agree")
	again := func() error {
		return h.Click(context.Background(), bottest.Bob, room, ask.ID, controlID(t, ask, "neutral"))
	}
	if err := again(); err != nil {
		t.Fatal(err)
	}
	d.sees(bottest.Bob, "you already acted in the survey phase of round 1")
	// The agents answer before the deadline, and round 1 is measured:
	// nothing is in flight when the clock jumps past the deadline.
	d.wait("the agents' answers and round 1's measurements", func() bool {
		evs, _ := db.Load(context.Background(), tableOf(t, db))
		anns, _ := db.Annotations(context.Background(), tableOf(t, db))
		n := 0
		for _, e := range evs {
			if _, ok := e.Data.(roundtable.SurveyAnswered); ok {
				n++
			}
		}
		return n == 3 && len(anns) == 8
	})
	clock.Advance(2 * time.Minute) // the survey, like the vote, has two minutes
	d.post(room, "**Round 2 of 2: message")
	if err := again(); err != nil {
		t.Fatal(err)
	}
	d.sees(bottest.Bob, "that was for round 1")
	d.play(room, 2)
	ask = d.post(room, "**Round 2 of 2: survey phase")
	for u, level := range map[bottest.User]string{bottest.Alice: "strongly disagree", bottest.Bob: "neutral"} {
		d.do(func(ctx context.Context) error { return h.Click(ctx, u, room, ask.ID, controlID(t, ask, level)) })
	}
	d.post(room, "**The table has ended")

	id := tableOf(t, db)
	evs, err := db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	st, err := roundtable.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	answers := map[string]int{}
	for _, e := range evs {
		if _, ok := e.Data.(roundtable.SurveyAnswered); ok {
			p, _ := st.Participant(e.Actor)
			answers[p.Name]++
		}
	}
	for _, e := range evs {
		if f, ok := e.Data.(roundtable.ActionFailed); ok {
			t.Errorf("failure of %s: %+v", e.Actor, f)
		}
	}
	if answers["Bob"] != 2 || answers["Alice"] != 1 || answers["Ada"] != 2 || answers["Bo"] != 2 {
		t.Errorf("survey answers by participant %v: want Bob 2, Alice 1 and each agent 2", answers)
	}
	var anns []roundtable.Annotation
	d.wait("8 messages measured twice", func() bool {
		anns, _ = db.Annotations(context.Background(), id)
		return len(anns) >= 16
	})
	page := d.get("/r/" + room + "/dashboard")
	for _, want := range []string{`class="audit-chart"`, "<polyline", "⚑ Ada changed stance without warrant", `src="/static/audit.js"`} {
		if !strings.Contains(page, want) {
			t.Errorf("dashboard lacks %q", want)
		}
	}
	if strings.Contains(page, "Self-report</th>") {
		t.Error("the host, seated nowhere, sees people's self-reports on the dashboard")
	}
	if frag := d.get("/r/" + room + "/audit"); !strings.Contains(frag, "<polyline") || strings.Contains(frag, "<html") {
		t.Errorf("the audit fragment the dashboard refreshes:\n%.500s", frag)
	}
	dl := d.get("/r/" + room + "/audit.jsonl")
	if !strings.Contains(dl, `"instrument":"sentiment"`) || strings.Contains(dl, `"instrument":"self-report"`) {
		t.Errorf("pseudonymised audit download:\n%.600s", dl)
	}
	// The organiser's log download holds every answer, pseudonymised.
	if got := surveyTypes(t, []byte(d.get("/r/"+room+"/log"))); got["survey_answered"] != 7 || got["withheld"] != 0 {
		t.Errorf("the organiser's log: %v, want 7 survey answers", got)
	}
	if log := d.get("/r/" + room + "/log"); strings.Contains(log, `"Bob"`) || strings.Contains(log, `"actor":"web:`) || !strings.Contains(log, `"actor":"human-`) {
		t.Error("the organiser's pseudonymised log names Bob")
	}
	// Bob's download and dashboard hold his own answers only.
	bob := h.user(bottest.Bob)
	b, err := bob.download(context.Background(), "/r/"+room+"/log")
	if err != nil {
		t.Fatal(err)
	}
	if got := surveyTypes(t, b); got["survey_answered"] != 2 || got["withheld"] != 5 {
		t.Errorf("Bob's log: %v, want his 2 answers and the 5 others withheld", got)
	}
	for _, path := range []string{"/log?names=maybe", "/audit.jsonl?names=yes"} {
		if _, err := bob.download(context.Background(), "/r/"+room+path); err == nil || !strings.Contains(err.Error(), "400 Bad Request") || !strings.Contains(err.Error(), "want keep or pseudonymize") {
			t.Errorf("%s: %v; want 400 naming the values", path, err)
		}
	}
	b, err = bob.download(context.Background(), "/r/"+room+"/dashboard")
	if err != nil {
		t.Fatal(err)
	}
	_, rows, _ := strings.Cut(string(b), "Self-report</th>")
	rows, _, _ = strings.Cut(rows, "</table>")
	if n := strings.Count(rows, "<tr>"); n != 2 || !strings.Contains(rows, "slightly agree (statement)") || strings.Contains(rows, "complement") {
		t.Errorf("Bob's dashboard shows %d self-reports, want his 2:\n%s", n, rows)
	}
}

// surveyTypes counts, in a JSONL log, the survey answers and the withheld
// survey answers.
func surveyTypes(t *testing.T, jsonl []byte) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(jsonl)), "\n") {
		var e roundtable.Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		switch d := e.Data.(type) {
		case roundtable.SurveyAnswered:
			out["survey_answered"]++
		case roundtable.Withheld:
			if d.Type == "survey_answered" {
				out["withheld"]++
			}
		}
	}
	return out
}

// webDriver plays people's part through the harness.
type webDriver struct {
	t *testing.T
	h *harness
}

func (d *webDriver) wait(what string, cond func() bool) {
	d.t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for !cond() {
		select {
		case <-d.h.Updates():
		case <-time.After(50 * time.Millisecond): // the store has no update signal
		case <-deadline.C:
			d.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func (d *webDriver) do(f func(ctx context.Context) error) {
	d.t.Helper()
	var err error
	d.wait("an act to be accepted", func() bool { err = f(context.Background()); return err == nil })
}

func (d *webDriver) post(room, prefix string) bottest.Post {
	d.t.Helper()
	var found bottest.Post
	d.wait(fmt.Sprintf("post %q", prefix), func() bool {
		for _, p := range d.h.Posts(room) {
			if strings.HasPrefix(p.Text, prefix) {
				found = p
				return true
			}
		}
		return false
	})
	return found
}

func (d *webDriver) sees(u bottest.User, s string) {
	d.t.Helper()
	d.wait(u.Name+" sees "+s, func() bool {
		for _, p := range d.h.Private(u) {
			if strings.Contains(p.Text, s) {
				return true
			}
		}
		return false
	})
}

func (d *webDriver) start(opts map[string]string) string {
	d.t.Helper()
	d.do(func(ctx context.Context) error { return d.h.Command(ctx, bottest.Alice, "lobby", "start", opts) })
	var room string
	d.wait("a room", func() bool {
		th := d.h.Threads("lobby")
		if len(th) > 0 {
			room = th[len(th)-1]
		}
		return room != ""
	})
	d.do(func(ctx context.Context) error { return d.h.Command(ctx, bottest.Bob, room, "join", nil) })
	d.sees(bottest.Bob, "You joined")
	d.do(func(ctx context.Context) error { return d.h.Command(ctx, bottest.Alice, room, "begin", nil) }) // the organiser starts the waiting table
	d.sees(bottest.Alice, "The table has started")
	return room
}

func (d *webDriver) play(room string, r int) {
	d.t.Helper()
	head := fmt.Sprintf("**Round %d of 2: ", r)
	d.post(room, head+"message")
	for _, u := range []bottest.User{bottest.Alice, bottest.Bob} {
		d.do(func(ctx context.Context) error { return d.h.Say(ctx, u, room, u.Name+" thinks homework is fine") })
	}
	d.post(room, head+"proposal")
	for _, u := range []bottest.User{bottest.Alice, bottest.Bob} {
		d.do(func(ctx context.Context) error {
			return d.h.Command(ctx, u, room, "propose", map[string]string{"text": u.Name + "'s plan"})
		})
	}
	d.post(room, head+"vote")
	for _, u := range []bottest.User{bottest.Alice, bottest.Bob} {
		d.do(func(ctx context.Context) error {
			return d.h.Command(ctx, u, room, "vote", map[string]string{"ballot": "A"})
		})
	}
	d.post(room, fmt.Sprintf("**Round %d result**", r))
}

// get fetches path as the host (the organiser's view) and returns its body.
func (d *webDriver) get(path string) string {
	d.t.Helper()
	return getAs(d.t, d.h, d.h.watcher.http, path)
}

func controlID(t *testing.T, p bottest.Post, label string) string {
	t.Helper()
	for _, c := range p.Controls {
		if c.Label == label {
			return c.ID
		}
	}
	t.Fatalf("post %q has no control %q", p.Text, label)
	return ""
}

func tableOf(t *testing.T, db *store.DB) string {
	t.Helper()
	list, err := db.Tables(context.Background())
	if err != nil || len(list) != 1 {
		t.Fatalf("tables %v, %v", list, err)
	}
	return list[0].ID
}
