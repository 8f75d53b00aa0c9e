package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
	"github.com/roundtable-ai/roundtable/store"
)

// protocolsStudyFile is a study of the designs with model-free agents
// that had not been driven through serve: the questionnaire (personas),
// RoundTable's exchange task (utility traders), the dyads (DeGroot agents
// under a strong confirmation bias) and the panel (evaluators at alpha
// 0.8, rating items given inline: no documents to read). One person sits
// at each table.
const protocolsStudyFile = `name = "protocols"
seed = 4
[defaults]
humans = 1
[[condition]]
name = "survey"
protocol = "questionnaire"
agent = "persona"
question = "The government should do more to regulate guns."
seats = 3
rounds = 1
[[condition]]
name = "trade"
task = "exchange"
preset = "asymmetric"
agent = "utility"
rule = "plurality"
seats = 3
rounds = 2
[[condition]]
name = "opinion"
protocol = "dyads"
claim = "global-warming"
agent = "degroot"
confirmation_bias = "strong"
seats = 3
rounds = 3
[[condition]]
name = "judges"
protocol = "panel"
agent = "evaluator"
question = "Who should we hire as data engineer?"
items = ["Ann", "Ben"]
roles = ["CFO", "Plant Manager", "Data Lead"]
alpha = 0.8
seats = 3
rounds = 2
`

// protocolConditions is, per condition of protocolsStudyFile, the
// protocol its table plays, what its person answers in a survey (one
// value per item) and the setting its bots' Agent carries.
var protocolConditions = map[string]struct {
	protocol string
	values   int
	agent    string
}{
	"survey":  {"questionnaire", 1, "persona"},
	"trade":   {"roundtable", 0, "utility"},
	"opinion": {"dyads", 1, "degroot?confirmation_bias=strong"},
	"judges":  {"panel", 2, "evaluator?alpha=0.8"},
}

// TestServeStudyPlaysModelFreeProtocols runs `serve --study` with a
// condition of each of the questionnaire, exchange, dyads and panel
// designs, their bots the protocols' model-free agents: four people open
// the cohort link, are seated one at each table, and act in every phase
// (a message, an allocation, a ballot, a survey answer) until their table
// ends. The log holds each table with its condition's protocol and bots
// whose Agent carries the condition's settings; the host's dashboard
// lists the tables and their results per condition, and the live
// results (experiment.LiveResults) measure every condition.
func TestServeStudyPlaysModelFreeProtocols(t *testing.T) {
	dir := t.TempDir()
	studyPath, dbPath := filepath.Join(dir, "protocols.toml"), filepath.Join(dir, "rt.db")
	if err := os.WriteFile(studyPath, []byte(protocolsStudyFile), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, fmt.Sprintf("[store]\npath = %q\n", dbPath))
	srv := startServe(t, cfg, nil, "--web-addr", "127.0.0.1:0", "--study", studyPath)
	hostLink := srv.waitOutput(regexp.MustCompile(`Open (http://127\.0\.0\.1:\d+/host\?k=\S+)`))[1]
	base := hostLink[:strings.Index(hostLink, "/host")]
	cohort := srv.waitOutput(regexp.MustCompile(`Study: everyone opens (http://\S+/c/[A-Z0-9]{6})`))[1]

	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	rooms := map[string]string{} // condition: room
	people := map[string]*scriptedPerson{}
	for i := range len(protocolConditions) {
		p := newScriptedPerson(base)
		resp, err := p.client.PostForm(cohort, map[string][]string{"name": {fmt.Sprintf("Student %d", i+1)}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		room, ok := strings.CutPrefix(resp.Request.URL.Path, "/r/")
		if !ok {
			t.Fatalf("Student %d was led to %s, not a room:\n%s", i+1, resp.Request.URL, b)
		}
		page, err := p.client.Get(base + "/r/" + room)
		if err != nil {
			t.Fatal(err)
		}
		b, _ = io.ReadAll(page.Body)
		page.Body.Close()
		for cond := range protocolConditions {
			if strings.Contains(string(b), "protocols · "+cond+" ·") {
				rooms[cond], people[cond] = room, p
			}
		}
	}
	if len(rooms) != len(protocolConditions) {
		t.Fatalf("people were seated at the tables of conditions %v, want one at each of %d", rooms, len(protocolConditions))
	}
	done := make(chan error, len(rooms))
	began := time.Now()
	for cond, room := range rooms {
		go func() {
			err := playProtocol(ctx, people[cond], room, cond)
			t.Logf("condition %s's table ended after %v", cond, time.Since(began).Round(time.Millisecond))
			done <- err
		}()
	}
	for range rooms {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// The host's dashboard lists every condition's table, ended, and the
	// results per condition.
	host := &http.Client{Timeout: 60 * time.Second}
	host.Jar, _ = cookiejar.New(nil)
	if resp, err := host.Get(hostLink); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	var page []byte
	for { // the results are measured apart: the page says so until they count every ended table
		resp, err := host.Get(base + "/study")
		if err != nil {
			t.Fatal(err)
		}
		page, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(page), `id="results-pending"`) {
			break
		}
	}
	t.Logf("the dashboard showed every ended table's results after %v", time.Since(began).Round(time.Millisecond))
	for cond, room := range rooms {
		if !strings.Contains(string(page), room) {
			t.Errorf("the study dashboard does not list condition %s's table (room %s):\n%s", cond, room, page)
		}
		if !strings.Contains(string(page), "<tr><td>"+cond+"</td>") {
			t.Errorf("the study dashboard shows no results of condition %s:\n%s", cond, page)
		}
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
		want, ok := protocolConditions[cond]
		if !ok {
			t.Errorf("table %s is of condition %q", st.ID, cond)
			continue
		}
		seen[cond] = true
		if st.Status != roundtable.StatusEnded || c.Protocol.String() != want.protocol {
			t.Errorf("condition %s's table is %s, of protocol %s; want ended, %s", cond, st.Status, c.Protocol, want.protocol)
		}
		bots := 0
		for _, p := range c.Participants {
			if p.Kind != roundtable.Bot {
				continue
			}
			bots++
			if p.Agent != want.agent {
				t.Errorf("condition %s: bot %s plays %q, want %q", cond, p.Name, p.Agent, want.agent)
			}
		}
		if bots != 2 {
			t.Errorf("condition %s's table seats %d bots, want 2", cond, bots)
		}
	}
	if len(seen) != len(protocolConditions) {
		t.Errorf("the log holds tables of conditions %v, want %d", seen, len(protocolConditions))
	}

	s, err := experiment.ReadStudy(studyPath, "")
	if err != nil {
		t.Fatal(err)
	}
	res, skipped, err := experiment.LiveResults(ctx, db, s, t.TempDir())
	t.Logf("the live results were measured after %v", time.Since(began).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("live results: %v (skipped %v)", err, skipped)
	}
	for cond := range protocolConditions {
		found := false
		for _, row := range res.Rows {
			found = found || row.Condition == cond
		}
		if !found {
			t.Errorf("the live results have no row of condition %s (rows %v, skipped %v)", cond, res.Rows, skipped)
		}
	}
}

// protocolFeed is what a person reads of a room's feed to act in any
// protocol's phase: the state and the posts' controls (a survey's
// Answer names the table and round its form answers).
type protocolFeed struct {
	Posts []struct {
		Text     string `json:"text"`
		Controls []struct {
			ID string `json:"id"`
		} `json:"controls"`
	} `json:"posts"`
	State struct {
		Status string `json:"status"`
		Round  int    `json:"round"`
		Phase  string `json:"phase"`
	} `json:"state"`
}

// playProtocol has p act once in each open phase of the table in room
// (condition cond of protocolsStudyFile) until it ends. A phase that is
// not the person's (another's turn, a pair they are not in) refuses the
// act: the person tries again a little later. It fails unless the person's acts
// were recorded at least once.
func playProtocol(ctx context.Context, p *scriptedPerson, room, cond string) error {
	// An act refused (another's turn, a pair the person is not in) is
	// tried again every few polls until the phase moves on.
	tried, done, last, polls, recorded, n := "", "", "", 0, 0, 0
	for {
		var f protocolFeed
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.base+"/r/"+room+"/feed", nil)
		resp, err := p.client.Do(req)
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&f)
			resp.Body.Close()
		}
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("condition %s: the table did not end (last at %s; %d acts recorded): %v", cond, last, recorded, err)
			}
			pause(ctx)
			continue
		}
		pos := fmt.Sprintf("%d/%s", f.State.Round, f.State.Phase)
		last = f.State.Status + " " + pos
		if f.State.Status == string(roundtable.StatusEnded) {
			if recorded == 0 {
				return fmt.Errorf("condition %s: the table ended with no act of its person recorded", cond)
			}
			return nil
		}
		polls++
		if f.State.Status == string(roundtable.StatusRunning) && pos != done && (pos != tried || polls >= 10) {
			n++
			body, ok := protocolAct(f, cond, fmt.Sprintf("%s%d", p.tag, n))
			if ok {
				tried, polls = pos, 0
				if sendAct(ctx, p, room, body) {
					done = pos
					recorded++
				}
				continue
			}
		}
		if !pause(ctx) {
			return fmt.Errorf("condition %s: the table did not end (last at %s; %d acts recorded)", cond, last, recorded)
		}
	}
}

// protocolAct is the person's act in f's open phase, false when the feed
// does not offer it yet (a survey's Answer not posted).
func protocolAct(f protocolFeed, cond, id string) (map[string]any, bool) {
	body := map[string]any{"id": id}
	switch f.State.Phase {
	case "message":
		body["kind"], body["text"] = "message", fmt.Sprintf("In round %d I think we should agree.", f.State.Round)
	case "proposal":
		text := "a fair plan " + id
		if cond == "trade" { // an allocation of the goods among the three
			text = "50 30 20; 30 40 30; 20 30 50"
		}
		body["kind"], body["command"], body["options"] = "command", "propose", map[string]string{"text": text}
	case "vote":
		body["kind"], body["command"], body["options"] = "command", "vote", map[string]string{"ballot": "A"}
	case "survey":
		suffix := fmt.Sprintf(":%d:survey", f.State.Round)
		for _, post := range f.Posts {
			for _, c := range post.Controls {
				if strings.HasSuffix(c.ID, suffix) {
					fields := map[string]string{}
					for i := range protocolConditions[cond].values {
						fields[fmt.Sprintf("v%d", i)] = "1"
					}
					body["kind"], body["action"], body["fields"] = "submit", c.ID, fields
					return body, true
				}
			}
		}
		return nil, false
	default:
		return nil, false
	}
	return body, true
}

// sendAct posts the act until the server answers, and reports whether it
// was recorded.
func sendAct(ctx context.Context, p *scriptedPerson, room string, body map[string]any) bool {
	raw, _ := json.Marshal(body)
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.base+"/r/"+room+"/act", strings.NewReader(string(raw)))
		req.Header.Set("Content-Type", "application/json")
		resp, err := p.client.Do(req)
		if err != nil {
			pause(ctx)
			continue
		}
		var ar struct {
			Replies []string `json:"replies"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&ar)
		resp.Body.Close()
		if resp.StatusCode == http.StatusServiceUnavailable {
			pause(ctx)
			continue
		}
		return resp.StatusCode == http.StatusOK && acknowledged(ar.Replies)
	}
	return false
}
