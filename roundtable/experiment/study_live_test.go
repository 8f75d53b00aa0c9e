package experiment_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/mediation"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/task/recommend"
	"github.com/roundtable-ai/roundtable/store"
)

// mixedStudy seats one person at tables of five designs: RoundTable's
// text task with bots of their own model, sampling and memory, a
// chatroom and a mediation of language models, and dyads and a panel of
// tuned model-free agents.
const mixedStudy = `name = "mixed"
seed = 7
replications = 1
[defaults]
agent = "llm"
seats = 3
humans = 1
rounds = 2
question = "Which trip do we take in spring?"
durations = { message = "4m" }
[[condition]]
name = "own-model"
task = "text"
rule = "borda"
[[condition.bot]]
name = "Ada"
model = "model-b"
temperature = 0.2
memory = "window"
window = 3
[[condition.bot]]
name = "Bo"
max_tokens = 300
[[condition]]
name = "chat"
protocol = "chatroom"
context_chars = 8000
persona_update = "none"
[[condition.bot]]
temperature = 0.9
[[condition]]
name = "mediate"
protocol = "mediation"
[[condition.bot]]
model = "model-m"
[[condition]]
name = "pairs"
protocol = "dyads"
agent = "degroot"
seats = 4
weight = 0.9
confirmation_bias = "strong"
[[condition]]
name = "judges"
protocol = "panel"
agent = "evaluator"
items = ["Ann", "Ben"]
alpha = 0.8
`

// seatRecorder is a Model whose agents need no model: a protocol's own
// model seat is played by its model-free kind, any other by the
// facilitator. It records what each seat's model was asked with.
type seatRecorder struct {
	mu    sync.Mutex
	asked map[string]experiment.ModelOptions // by participant ID and name
}

func (r *seatRecorder) model(p roundtable.Participant, _ roundtable.Task, o experiment.ModelOptions) (roundtable.Agent, error) {
	r.mu.Lock()
	r.asked[p.ID+"|"+p.Name] = o
	r.mu.Unlock()
	if _, _, own := protocol.ModelSeat(p); own {
		ag, _, err := protocol.Agent(strings.SplitN(p.Agent, ":", 2)[0])
		return ag, err
	}
	return facilitator.Agent{}, nil
}

// TestStudyLiveTableIsTheHeadlessFirstTable: every condition of a study
// mixing protocols is accepted live, and its live table is the table
// `study run` stores for replication 1 (rule, tie, schedule, task,
// durations, labels, seats), but for the person's seat and the stand-ins
// label; each model seat's Agent carries what the headless run asked its
// model with, and a mediation takes its own rule and tie.
func TestStudyLiveTableIsTheHeadlessFirstTable(t *testing.T) {
	ctx := context.Background()
	s, err := experiment.ParseStudy("mixed.toml", []byte(mixedStudy))
	if err != nil {
		t.Fatal(err)
	}
	live, err := s.Live()
	if err != nil {
		t.Fatalf("Live: %v", err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "rt.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i, lc := range live {
		c := s.Conditions[i]
		one, err := experiment.ParseStudy("mixed.toml", []byte(mixedStudy))
		if err != nil {
			t.Fatal(err)
		}
		if err := one.Only([]string{c.Name}); err != nil {
			t.Fatal(err)
		}
		rec := &seatRecorder{asked: map[string]experiment.ModelOptions{}}
		if _, err := one.Run(ctx, db, roundtable.SystemClock{}, experiment.StudyRun{Model: rec.model, Concurrency: 1}); err != nil {
			t.Fatalf("%s: headless run: %v", c.Name, err)
		}
		evs, err := db.Load(ctx, "mixed-"+c.Name+"-0001")
		if err != nil {
			t.Fatal(err)
		}
		st, err := roundtable.Replay(evs)
		if err != nil {
			t.Fatal(err)
		}
		head := st.Config
		if lc.Name != c.Name || lc.People != 1 {
			t.Errorf("%s: live condition %q seats %d people, want %q and 1", c.Name, lc.Name, lc.People, c.Name)
		}
		if head.Labels["stand_ins"] == "" || lc.Config.Labels["stand_ins"] != "" {
			t.Errorf("%s: stand_ins label headless %q, live %q; want it only headless", c.Name, head.Labels["stand_ins"], lc.Config.Labels["stand_ins"])
		}
		stand := head.Labels["stand_ins"]
		var bots []roundtable.Participant
		for _, p := range head.Participants {
			if p.ID != stand {
				bots = append(bots, p)
			}
		}
		if len(bots) != len(lc.Bots) {
			t.Fatalf("%s: %d live bots, want the %d headless seats but the person's", c.Name, len(lc.Bots), len(bots))
		}
		for j, p := range lc.Bots {
			want := bots[j]
			kind, _, _ := strings.Cut(p.Agent, "?")
			if asked, model := rec.asked[want.ID+"|"+want.Name]; model {
				kind, o, err := experiment.ParseSeatAgent(p.Agent)
				if err != nil {
					t.Fatalf("%s: bot %s: %v", c.Name, p.ID, err)
				}
				if _, ep, _ := strings.Cut(kind, ":"); !strings.Contains(kind, "stitch") {
					o.Endpoint = ep
				} else {
					asked = experiment.ModelOptions{Model: asked.Model, Temperature: asked.Temperature}
				}
				if !reflect.DeepEqual(o, asked) {
					t.Errorf("%s: bot %s (%s) is asked live with %+v, headless with %+v", c.Name, p.ID, p.Agent, o, asked)
				}
			} else if kind != want.Agent {
				t.Errorf("%s: model-free bot %s plays %q live, %q headless", c.Name, p.ID, p.Agent, want.Agent)
			}
			p.Agent = want.Agent
			if !reflect.DeepEqual(p, want) {
				t.Errorf("%s: live bot %+v, headless %+v", c.Name, p, want)
			}
		}
		lcfg := lc.Config
		lcfg.Participants, head.Participants = nil, nil
		head.Provenance, head.Title, lcfg.Title = nil, "", ""
		delete(head.Labels, "stand_ins")
		lj, _ := json.Marshal(lcfg.WithDefaults()) // as the log keeps it
		hj, _ := json.Marshal(head.WithDefaults())
		if string(lj) != string(hj) {
			t.Errorf("%s: live config\n%s\nheadless\n%s", c.Name, lj, hj)
		}
	}
	own := live[0].Bots[0].Agent
	if own != "llm?memory=window&model=model-b&temperature=0.2&window=3" {
		t.Errorf("Ada's live agent is %q, want her own model, temperature and window memory", own)
	}
	for i, want := range map[int]string{3: "degroot?confirmation_bias=strong&weight=0.9", 4: "evaluator?alpha=0.8"} {
		if got := live[i].Bots[0].Agent; got != want {
			t.Errorf("%s: a model-free bot's live agent is %q, want %q (its kind and tuned settings)", live[i].Name, got, want)
		}
	}
	if med := live[2].Config; med.Rule != "schulze" || med.Tie != "random" || med.Protocol.String() != "mediation" {
		t.Errorf("the mediation condition decides by %s, ties %s at a %s table; want schulze, random, mediation", med.Rule, med.Tie, med.Protocol)
	}
}

// TestStudyLiveRefusesNamingConditionAndKey: what a live table cannot
// play is an error naming the study, the condition and the key.
func TestStudyLiveRefusesNamingConditionAndKey(t *testing.T) {
	docs := t.TempDir()
	for _, item := range []string{"Ann", "Ben"} {
		if err := os.WriteFile(filepath.Join(docs, item+".txt"), []byte(item+" ships small things often and well."), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ name, recipe, want string }{
		{"no people", "task = \"text\"\nagent = \"llm\"\nhumans = 0", `condition "c": humans: 0`},
		{"panel documents", "protocol = \"panel\"\nagent = \"evaluator\"\nitems = [\"Ann\", \"Ben\"]\nitem_dir = " + strconv.Quote(docs), `condition "c": agent: "evaluator": a live table's model-free agent is made from its kind and settings alone`},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := "name = \"s\"\n[defaults]\nseats = 3\nhumans = 1\nquestion = \"Is it?\"\n[[condition]]\nname = \"c\"\n" + c.recipe + "\n"
			s, err := experiment.ParseStudy("s.toml", []byte(file))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Live(); err == nil || !strings.Contains(err.Error(), "study s: "+c.want) {
				t.Errorf("Live: %v, want %q", err, c.want)
			}
		})
	}
}

// TestSeatAgentReadsBackStrictly: a seat's model options written into its
// Agent read back the same; a malformed, unknown or repeated option is
// an error naming it.
func TestSeatAgentReadsBackStrictly(t *testing.T) {
	temp := 0.25
	o := experiment.ModelOptions{Model: "model-b", Temperature: &temp, MaxTokens: 300, Memory: "window", Window: 3, ContextChars: 8000, PersonaUpdate: "signal:lab"}
	s := experiment.SeatAgent("llm:lab", o)
	kind, back, err := experiment.ParseSeatAgent(s)
	if err != nil || kind != "llm:lab" || !reflect.DeepEqual(back, o) {
		t.Errorf("ParseSeatAgent(%q) = %q, %+v, %v; want llm:lab, %+v", s, kind, back, err, o)
	}
	if s := experiment.SeatAgent("llm", experiment.ModelOptions{}); s != "llm" {
		t.Errorf("a seat of no options of its own is %q, want llm", s)
	}
	for in, want := range map[string]string{
		"llm?model=a&model=b":   "model: give it once",
		"llm?colour=red":        `"colour" is no option`,
		"llm?temperature=hot":   "temperature: want a number in 0..2",
		"llm?window=0":          "window: want a positive whole number",
		"llm?memory=eidetic":    `memory: "eidetic" is not full, window or reflective`,
		"stitch:llm?model=%zz":  "invalid URL escape",
		"llm:lab?max_tokens=-1": "max_tokens: want a positive whole number",
	} {
		if _, _, err := experiment.ParseSeatAgent(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSeatAgent(%q): %v, want %q", in, err, want)
		}
	}
}

// TestModelFreeSeatReadsBack: a model-free seat's Agent names its kind
// and the settings that differ from a recipe's defaults; read back, it
// is the agent the protocol makes of those settings. A bad setting is an
// error naming it.
func TestModelFreeSeatReadsBack(t *testing.T) {
	s := protocol.Settings{Protocol: "dyads", Agent: "degroot", Weight: 0.9, Mu: 0.3, Epsilon: 1, Alpha: 0.5, Memory: "reflective", ConfirmationBias: "weak"}
	seat := experiment.ModelFreeSeat("degroot", s)
	if seat != "degroot?confirmation_bias=weak&memory=reflective&weight=0.9" {
		t.Errorf("ModelFreeSeat = %q", seat)
	}
	ag, ok, err := experiment.ModelFreeAgent(seat)
	p, _ := protocol.Lookup("dyads")
	want, _ := p.(protocol.Agents).Agent("degroot", s)
	if !ok || err != nil || !reflect.DeepEqual(ag, want) {
		t.Errorf("ModelFreeAgent(%q) = %#v, %v, %v; want %#v", seat, ag, ok, err, want)
	}
	if _, ok, _ := experiment.ModelFreeAgent("llm:lab?model=m"); ok {
		t.Error("a language model's seat is read as a model-free agent")
	}
	for in, want := range map[string]string{
		"degroot?weight=heavy":           "weight: want a number",
		"degroot?colour=red":             `"colour" is no setting of a model-free agent`,
		"degroot?weight=1&weight=2":      "weight: give it once",
		"persona?confirmation_bias=weak": "no confirmation bias",
	} {
		if _, _, err := experiment.ModelFreeAgent(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ModelFreeAgent(%q): %v, want %q", in, err, want)
		}
	}
}

// TestStudyFilesPlayLiveWithPeople: every study file in studies/, with a
// person at each table (humans = 1), is accepted live, but for the two
// designs a live table cannot play: the recommendation task (its ratings
// are held out of a data set) and a panel whose model-free judges read
// the items' documents.
func TestStudyFilesPlayLiveWithPeople(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "studies"))); err != nil {
		t.Fatal(err)
	}
	movies := filepath.Join(dir, "data", "ml-100k")
	if err := os.MkdirAll(movies, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := recommend.WriteSynthetic(movies, 60, 80, 3); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil || len(files) < 6 {
		t.Fatalf("studies/: %v, %v", files, err)
	}
	refused := map[string]string{
		"roundtable-figure3.toml": `task: "recommendation"`,
		"panel-evaluation.toml":   `agent: "evaluator": a live table's model-free agent is made from its kind and settings alone`,
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			withPeople := strings.Replace(string(text), "\nhumans = 0 ", "\nhumans = 1 ", 1)
			if withPeople == string(text) {
				withPeople = strings.Replace(withPeople, "[defaults]\n", "[defaults]\nhumans = 1\n", 1)
			}
			s, err := experiment.ParseStudy(f, []byte(withPeople))
			if err != nil {
				t.Fatal(err)
			}
			live, err := s.Live()
			switch want, ok := refused[name]; {
			case ok && (err == nil || !strings.Contains(err.Error(), want)):
				t.Errorf("Live: %v, want %q", err, want)
			case !ok && err != nil:
				t.Errorf("Live: %v", err)
			case !ok && len(live) != len(s.Conditions):
				t.Errorf("%d live conditions of %d", len(live), len(s.Conditions))
			}
			for _, lc := range live { // the web channel opens no text table that does not say what it decides
				if lc.Config.Task.Kind == "text" && lc.Config.Task.Topic == "" {
					t.Errorf("condition %s: a text table with no topic", lc.Name)
				}
			}
		})
	}
}

// TestLiveResultsSayTablesArePlayed: a live study's table that has not
// ended is being played, not to be run again; the dashboard says so.
func TestLiveResultsSayTablesArePlayed(t *testing.T) {
	ctx := t.Context()
	s, err := experiment.ParseStudy("trade.toml", []byte(tradeStudy))
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "rt.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cfg := roundtabletest.SampleConfig(1) // a table of the study's first condition, waiting for its people
	cfg.Labels = map[string]string{experiment.LabelStudy: s.Name, experiment.LabelCondition: s.Conditions[0].Name}
	if _, err := roundtable.Create(ctx, db, roundtabletest.NewClock(time.Now()), roundtabletest.SampleTask(), "live-1", cfg); err != nil {
		t.Fatal(err)
	}
	_, notes, _ := experiment.LiveResults(ctx, db, s, t.TempDir()) // no table has ended: no results, only notes
	if !slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, "1 table of the study is still being played") }) {
		t.Fatalf("notes %q, want the table said to be still played", notes)
	}
	if slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, "study run") }) {
		t.Fatalf("notes %q tell a live study's host to run it headless", notes)
	}
}
