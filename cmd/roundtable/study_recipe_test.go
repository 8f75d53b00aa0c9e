package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// recipeStudyFile is a study of three designs: RoundTable's text task
// with a bot of its own model and temperature, a chatroom, and a
// mediation (whose mediators are the protocol's own seats).
const recipeStudyFile = `name = "recipes"
seed = 2
[defaults]
agent = "llm"
seats = 2
humans = 1
rounds = 1
question = "Which trip do we take in spring?"
[[condition]]
name = "own"
task = "text"
[[condition.bot]]
name = "Ada"
model = "model-b"
temperature = 0.2
[[condition]]
name = "chat"
protocol = "chatroom"
persona_update = "none"
[[condition]]
name = "mediate"
protocol = "mediation"
`

// TestServeStudyPlaysEachConditionsRecipe runs `serve --study` with a
// condition of each of three protocols: three people open the cohort link
// and are seated one at each; Ada, the text table's bot, asks the model server for
// her own model at her own temperature, and still does after serve
// restarts, until her person has played the table to its end. The log
// records her model in the table's provenance, and the other tables'
// protocols, the mediation's own rule and tie and its mediators.
func TestServeStudyPlaysEachConditionsRecipe(t *testing.T) {
	asked := make(chan *openaitest.Request, 1024)
	llm := openaitest.NewServer(func(ctx context.Context, r *openaitest.Request) openaitest.Reply {
		select {
		case asked <- r:
		default:
		}
		return openaitest.Responder{}.Handle(ctx, r)
	})
	defer llm.Close()
	dir := t.TempDir()
	study, dbPath := filepath.Join(dir, "recipes.toml"), filepath.Join(dir, "rt.db")
	if err := os.WriteFile(study, []byte(recipeStudyFile), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, fmt.Sprintf("[store]\npath = %q\n[[llm]]\nname = \"fake\"\nbase_url = %q\nmodel = \"test-model\"\n", dbPath, llm.URL()))
	serve := func() (*server, string) {
		srv := startServe(t, cfg, nil, "--web-addr", "127.0.0.1:0", "--study", study)
		return srv, srv.waitOutput(regexp.MustCompile(`Open (http://127\.0\.0\.1:\d+)/host\?k=`))[1]
	}
	srv, base := serve()
	cohort := srv.waitOutput(regexp.MustCompile(`Study: everyone opens (http://\S+/c/[A-Z0-9]{6})`))[1]
	var own *scriptedPerson
	ownRoom := ""
	for i := range 3 {
		p := newScriptedPerson(base)
		resp, err := p.client.PostForm(cohort, map[string][]string{"name": {fmt.Sprintf("Student %d", i+1)}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		room, ok := strings.CutPrefix(resp.Request.URL.Path, "/r/")
		if !ok {
			t.Fatalf("Student %d was led to %s, not a room", i+1, resp.Request.URL)
		}
		page, err := p.client.Get(base + "/r/" + room)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(page.Body)
		page.Body.Close()
		if strings.Contains(string(b), "recipes · own ·") {
			own, ownRoom = p, room
		}
	}
	if own == nil {
		t.Fatal("nobody was seated at the text table of condition own")
	}
	adaAsked := func(r *openaitest.Request) bool {
		return len(r.Messages) > 0 && strings.Contains(r.Messages[0].Content, "Ada")
	}
	waitAda := func(when string) {
		deadline := time.NewTimer(30 * time.Second)
		defer deadline.Stop()
		for {
			select {
			case r := <-asked:
				if adaAsked(r) {
					checkAda(t, when, r)
					return
				}
			case <-deadline.C:
				t.Fatalf("%s: Ada asked no model", when)
			}
		}
	}
	waitAda("before the restart")
	srv.stop()
	srv, own.base = serve()
	drained := false
	for !drained { // what was asked before the restart
		select {
		case <-asked:
		default:
			drained = true
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	acted, after := "", 0
	for {
		f, err := own.feed(ctx, ownRoom)
		if err != nil {
			if !pause(ctx) {
				t.Fatalf("the text table did not end: %v", err)
			}
			continue
		}
		pos := fmt.Sprintf("%d/%s", f.State.Round, f.State.Phase)
		if f.State.Status == "ended" {
			break
		}
		if f.State.Status == "running" && pos != acted && own.act(ctx, ownRoom, f.State.Round, f.State.Phase) {
			acted = pos
		} else if !pause(ctx) {
			t.Fatalf("the text table did not end (at %s %s)", f.State.Status, pos)
		}
	}
	for drained = false; !drained; {
		select {
		case r := <-asked:
			if adaAsked(r) {
				checkAda(t, "after the restart", r)
				after++
			}
		default:
			drained = true
		}
	}
	if after == 0 {
		t.Error("Ada asked no model after serve restarted")
	}
	srv.stop()

	db, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	seen := map[string]bool{}
	for _, st := range storedStates(t, db) {
		c := st.Config
		cond := c.Labels["condition"]
		seen[cond] = true
		switch cond {
		case "own":
			if st.Status != roundtable.StatusEnded || c.Protocol.String() != "roundtable" {
				t.Errorf("the text table is %s, of protocol %s; want ended, roundtable", st.Status, c.Protocol)
			}
			ada := ""
			for _, p := range c.Participants {
				if p.Name == "Ada" {
					ada = p.ID
				}
			}
			if pr := c.Provenance.Agents[ada]; pr.Model != "model-b" || pr.Temperature == nil || *pr.Temperature != 0.2 {
				t.Errorf("Ada's provenance is %+v, want model-b at 0.2", pr)
			}
		case "chat":
			if c.Protocol.String() != "chatroom" {
				t.Errorf("the chat condition's table is of protocol %s, want chatroom", c.Protocol)
			}
		case "mediate":
			mediators := 0
			for _, p := range c.Participants {
				if p.Mediates() && p.Agent == "stitch:llm" {
					mediators++
				}
			}
			if c.Protocol.String() != "mediation" || c.Rule != "schulze" || c.Tie != "random" || mediators == 0 {
				t.Errorf("the mediate condition's table is of protocol %s, rule %s, tie %s, with %d model mediators; want mediation, schulze, random and its mediators",
					c.Protocol, c.Rule, c.Tie, mediators)
			}
		}
	}
	if !seen["own"] || !seen["chat"] || !seen["mediate"] {
		t.Errorf("the log holds tables of conditions %v, want own, chat and mediate", seen)
	}
}

// checkAda checks that Ada's model request asks her own model at her own
// temperature.
func checkAda(t *testing.T, when string, r *openaitest.Request) {
	t.Helper()
	if r.Model != "model-b" || r.Temperature == nil || *r.Temperature != 0.2 {
		t.Errorf("%s: Ada asked for model %q at temperature %v, want model-b at 0.2", when, r.Model, r.Temperature)
	}
}

// storedStates replays every table of db from its log.
func storedStates(t *testing.T, db *store.DB) []*roundtable.State {
	t.Helper()
	tables, err := db.Tables(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*roundtable.State, 0, len(tables))
	for _, sum := range tables {
		evs, err := db.Load(t.Context(), sum.ID)
		if err != nil {
			t.Fatal(err)
		}
		st, err := roundtable.Replay(evs)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, st)
	}
	return out
}
