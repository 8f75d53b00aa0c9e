package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
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
// message is annotated in the background; Bob reports his stance with one
// click; the dashboard shows the trajectories and flags Ada, whose stance
// left the one she was assigned; the audit downloads pseudonymised.
func TestAuditedTableOnTheWeb(t *testing.T) {
	srv := openaitest.NewServer(judge)
	defer srv.Close()
	h := newHarness(t)
	db := h.db // the web channel reads the tables the bot keeps
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	clock := bottest.NewClock(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))
	go func() { done <- auditedService(t, h.Platform(), db, srv.URL(), clock, "Ada", "Bo").Run(ctx) }()
	defer func() { cancel(); <-done }()
	d := &webDriver{t: t, h: h}

	room := d.start(map[string]string{"topic": "Should homework go?", "audit": "sentiment,stance",
		"audit_statement": "Homework should be abolished.", "self_report": "yes"})
	d.play(room, 1)
	ask := d.post(room, "**Round 1: where do you stand now?")
	d.do(func(ctx context.Context) error {
		return h.Click(ctx, bottest.Bob, room, ask.ID, controlID(t, ask, "slightly agree (statement)"))
	})
	d.sees(bottest.Bob, "Recorded privately for round 1")
	d.play(room, 2)
	d.post(room, "**The table has ended")

	var anns []roundtable.Annotation
	d.wait("8 messages measured twice", func() bool {
		anns, _ = db.Annotations(context.Background(), tableOf(t, db))
		return len(anns) >= 17
	})
	page := d.get("/r/" + room + "/dashboard")
	for _, want := range []string{`class="audit-chart"`, "<polyline", "⚑ Ada changed stance without warrant", "slightly agree (statement)", `src="/static/audit.js"`} {
		if !strings.Contains(page, want) {
			t.Errorf("dashboard lacks %q", want)
		}
	}
	if frag := d.get("/r/" + room + "/audit"); !strings.Contains(frag, "<polyline") || strings.Contains(frag, "<html") {
		t.Errorf("the audit fragment the dashboard refreshes:\n%.500s", frag)
	}
	dl := d.get("/r/" + room + "/audit.jsonl")
	if !strings.Contains(dl, `"instrument":"self-report"`) || !strings.Contains(dl, `"model":"self:human-`) || strings.Contains(dl, "web:"+bottest.Bob.ID) {
		t.Errorf("pseudonymised audit download:\n%.600s", dl)
	}
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
	ctx := context.Background()
	base, err := d.h.base(ctx)
	if err != nil {
		d.t.Fatal(err)
	}
	resp, err := d.h.watcher.http.Get(base + path)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		d.t.Fatalf("GET %s: %s\n%s", path, resp.Status, b)
	}
	return string(b)
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
