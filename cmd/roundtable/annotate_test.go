package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
)

const annotateInputs = `{"id":"a","text":"The cat sat on the mat."}

{"id":"b","text":"The plot was good, but the characters are uncompelling and the dialog is not great."}
`

// decodeLines decodes each output line, checking the ids come back in order.
func decodeLines(t *testing.T, out string, ids ...string) []map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(ids) {
		t.Fatalf("%d output lines, want %d:\n%s", len(lines), len(ids), out)
	}
	var objs []map[string]any
	for i, l := range lines {
		var o map[string]any
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", i+1, err, l)
		}
		if o["id"] != ids[i] {
			t.Fatalf("line %d has id %v, want %s", i+1, o["id"], ids[i])
		}
		objs = append(objs, o)
	}
	return objs
}

func TestAnnotateReadability(t *testing.T) {
	code, out, errOut := run(t, annotateInputs, "annotate", "--instrument", "readability")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	objs := decodeLines(t, out, "a", "b")
	if got := fmt.Sprint(objs[0]); got != "map[fk_grade:-1.45 id:a sentences:1 syllables:6 words:6]" {
		t.Fatalf("line 1: %s", got)
	}
}

// Syllables come from the CMU Pronouncing Dictionary by default; the
// earlier vowel-group heuristic stays a method: science(2/1) shows(1)
// bias(2/1) in(1) various(3/2) frameworks(2/3).
func TestAnnotateReadabilityMethods(t *testing.T) {
	in := `{"id":"a","text":"Science shows bias in various frameworks."}` + "\n"
	for method, want := range map[string]float64{"": 11, "cmudict": 11, "vowel-groups": 9} {
		code, out, errOut := run(t, in, "annotate", "--instrument", "readability", "--method", method)
		if code != 0 {
			t.Fatalf("--method %q: exit %d: %s", method, code, errOut)
		}
		if o := decodeLines(t, out, "a")[0]; o["syllables"] != want {
			t.Errorf("--method %q: %v, want %v syllables", method, o, want)
		}
	}
}

func TestAnnotateSentimentVader(t *testing.T) {
	code, out, errOut := run(t, annotateInputs, "annotate", "--instrument", "sentiment")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	o := decodeLines(t, out, "a", "b")[1]
	// The reference README's example: compound -0.7042, pos 0.094, neu 0.579, neg 0.327.
	if o["compound"] != -0.7042 || o["pos"] != 0.094 || o["neu"] != 0.579 || o["neg"] != 0.327 {
		t.Fatalf("VADER fields %v", o)
	}
	args := o["arguments"].([]any)
	if len(args) != 2 || args[0].(map[string]any)["text"] != "The plot was good" {
		t.Fatalf("arguments %v", args)
	}
	mean := (args[0].(map[string]any)["score"].(float64) + args[1].(map[string]any)["score"].(float64)) / 2
	if math.Abs(o["score"].(float64)-mean) > 1e-9 {
		t.Fatalf("score %v is not the mean of the arguments %v", o["score"], mean)
	}
}

func TestAnnotateOfflineActsAndEmbedding(t *testing.T) {
	code, out, errOut := run(t, `{"id":"x","text":"I propose we split the apples."}`, "annotate", "--instrument", "dialogue-acts")
	if code != 0 || strings.TrimSpace(out) != `{"id":"x","acts":["Propose"]}` {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	code, out, errOut = run(t, `{"id":"x","text":"apples"}`, "annotate", "--instrument", "embedding")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if v := decodeLines(t, out, "x")[0]["vector"].([]any); len(v) != 512 {
		t.Fatalf("vector of length %d", len(v))
	}
}

// The stance command through the real client against the fake: votes of
// the first ask, the tie re-ask, presence.
func TestAnnotateStanceAgainstFake(t *testing.T) {
	var mu sync.Mutex
	signal := 0
	srv := openaitest.NewServer(func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.SchemaName == "opinion_presence":
			return openaitest.JSON(map[string]string{"reasoning": "r", "label": "yes"})
		case !strings.Contains(string(r.Schema), "neutral"): // the re-ask of a tie between the two agree levels
			return openaitest.JSON(map[string]string{"reasoning": "r", "label": "strongly agree (statement)"})
		}
		signal++
		lv := map[bool]string{true: "strongly agree (statement)", false: "slightly agree (statement)"}[signal%2 == 0]
		return openaitest.JSON(map[string]string{"reasoning": "r", "label": lv})
	})
	defer srv.Close()
	code, out, errOut := run(t, `{"id":"m1","text":"Raise them now!"}`, "annotate", "--instrument", "stance",
		"--statement", "Taxes on the rich should rise.", "--samples", "4", "--llm-base-url", srv.URL(), "--llm-model", "fake")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	o := decodeLines(t, out, "m1")[0]
	if o["presence"] != true || o["label"] != "strongly agree (statement)" || o["level"] != 2.0 {
		t.Fatalf("result %v", o)
	}
	if fmt.Sprint(o["votes"]) != "map[slightly agree (statement):2 strongly agree (statement):2]" {
		t.Fatalf("votes %v", o["votes"])
	}
	if n := srv.Count(nil); n != 12 {
		t.Fatalf("%d requests, want 12 (4 presence, 4 signal, 4 re-ask)", n)
	}
}

// Dialogue acts by negotiation between two configured endpoints.
func TestAnnotateActsByNegotiation(t *testing.T) {
	agreeing := func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		if strings.HasSuffix(r.SchemaName, "_judgement") {
			return openaitest.JSON(map[string]any{"agree": true, "explanation": "fine", "labels": []string{"Propose"}})
		}
		return openaitest.JSON(map[string]any{"reasoning": "r", "labels": []string{"Propose"}})
	}
	a, b := openaitest.NewServer(agreeing), openaitest.NewServer(agreeing)
	defer a.Close()
	defer b.Close()
	cfg := filepath.Join(t.TempDir(), "rt.toml")
	toml := fmt.Sprintf("[[llm]]\nname = \"a\"\nbase_url = %q\nmodel = \"m\"\n\n[[llm]]\nname = \"b\"\nbase_url = %q\nmodel = \"m\"\n", a.URL(), b.URL())
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, `{"id":1,"text":"Let us take plan B."}`, "--config", cfg, "annotate",
		"--instrument", "dialogue-acts", "--method", "llm", "--negotiate", "a,b")
	if code != 0 || strings.TrimSpace(out) != `{"id":1,"acts":["Propose"]}` {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if a.Count(nil) != 2 || b.Count(nil) != 2 {
		t.Fatalf("requests a=%d b=%d, want 2 each (a session in each role order)", a.Count(nil), b.Count(nil))
	}
}

func TestAnnotateMalformedLineExits2WithLineNumber(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"{\"id\":\"a\",\"text\":\"ok\"}\n\n{\"id\":\"b\",\"text\":", "line 3: not a JSON object"},
		{"{\"id\":\"a\",\"text\":\"ok\"}\n{\"text\":\"no id\"}", `line 2: no "id"`},
		{"{\"id\":\"a\"}", `line 1: no "text"`},
		{"[1,2]", "line 1: not a JSON object"},
	} {
		code, out, errOut := run(t, tt.in, "annotate", "--instrument", "readability")
		if code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("input %q: exit %d, stderr %q; want 2 and %q", tt.in, code, errOut, tt.want)
		}
		if strings.HasPrefix(tt.in, `{"id":"a","text":"ok"}`) && !strings.Contains(out, `"id":"a"`) {
			t.Errorf("input %q: the good line before was not written: %q", tt.in, out)
		}
	}
}

func TestAnnotateBadFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"annotate"}, "--instrument is required"},
		{[]string{"annotate", "--instrument", "mood"}, `--instrument: "mood" is not`},
		{[]string{"annotate", "--instrument", "stance"}, "needs --statement"},
		{[]string{"annotate", "--instrument", "stance", "--statement", "x"}, "no language model is configured"},
		{[]string{"annotate", "--instrument", "sentiment", "--method", "bert"}, `"bert" is not vader or llm`},
		{[]string{"annotate", "--instrument", "readability", "--samples", "0"}, "--samples: must be at least 1"},
		{[]string{"annotate", "--instrument", "readability", "--method", "guess"}, `"guess" is not cmudict or vowel-groups`},
	} {
		code, _, errOut := run(t, "", tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

// A model that is down: the line is written with the reason, the others
// go on, and the command exits 1.
func TestAnnotateModelDownWritesError(t *testing.T) {
	srv := openaitest.NewServer(func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		return openaitest.Status(401, "invalid api key")
	})
	defer srv.Close()
	code, out, errOut := run(t, annotateInputs, "annotate", "--instrument", "dialogue-acts", "--method", "llm", "--samples", "2",
		"--llm-base-url", srv.URL(), "--llm-model", "fake")
	objs := decodeLines(t, out, "a", "b")
	if code != 1 || !strings.Contains(objs[0]["error"].(string), "invalid api key") || !strings.Contains(errOut, "2 of 2 lines have no dialogue-acts") {
		t.Fatalf("exit %d, out %q, stderr %q", code, out, errOut)
	}
}

// The model-backed methods of sentiment and embedding through the command.
func TestAnnotateSentimentAndEmbeddingWithModel(t *testing.T) {
	srv := openaitest.NewServer(func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		lv := "positive"
		if strings.Contains(r.LastUser(), "uncompelling") {
			lv = "very negative"
		}
		return openaitest.JSON(map[string]string{"reasoning": "r", "label": lv})
	})
	defer srv.Close()
	ep := []string{"--llm-base-url", srv.URL(), "--llm-model", "fake"}
	code, out, errOut := run(t, annotateInputs, append([]string{"annotate", "--instrument", "sentiment", "--method", "llm", "--samples", "3"}, ep...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	o := decodeLines(t, out, "a", "b")[1]
	// Two arguments: "The plot was good" (positive, 0.5) and "the
	// characters are uncompelling and ..." (very negative, -1); VADER still
	// reads the whole text.
	if o["score"] != -0.25 || o["compound"] != -0.7042 {
		t.Fatalf("result %v", o)
	}
	code, out, errOut = run(t, `{"id":"e","text":"apples and pears"}`,
		append([]string{"annotate", "--instrument", "embedding", "--method", "llm", "--embedding-model", "emb-1"}, ep...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want, _ := openaitest.BagOfWords("", "apples and pears")
	if got := decodeLines(t, out, "e")[0]["vector"]; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("vector %v, want %v", got, want)
	}
	if reqs := srv.EmbedRequests(); len(reqs) != 1 || reqs[0].Model != "emb-1" {
		t.Fatalf("embedding requests %+v", reqs)
	}
}

// Negotiated labels against gold labels (the LLM negotiation paper's
// accuracy), with demonstrations shown as reasoning chains: both fake
// endpoints negotiate "Propose" for every text; the gold says Propose,
// Request, Propose (id 4 has none). By hand: 2 of 3 correct; kappa over
// {Propose, Request} against {Propose, Propose, Propose}: p_o = 2/3, p_e
// = 2/3·1 + 1/3·0 = 2/3, and with p_e < 1 kappa = 0.
func TestAnnotateNegotiatedLabelsAgainstGold(t *testing.T) {
	agreeing := func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		switch {
		case r.SchemaName == "demonstration_reasoning":
			return openaitest.JSON(map[string]any{"reasoning": "it puts a plan forward"})
		case strings.HasSuffix(r.SchemaName, "_judgement"):
			return openaitest.JSON(map[string]any{"agree": true, "explanation": "fine", "labels": []string{"Propose"}})
		}
		return openaitest.JSON(map[string]any{"reasoning": "r", "labels": []string{"Propose"}})
	}
	a, b := openaitest.NewServer(agreeing), openaitest.NewServer(agreeing)
	defer a.Close()
	defer b.Close()
	dir := t.TempDir()
	cfg, gold, demos := filepath.Join(dir, "rt.toml"), filepath.Join(dir, "gold.jsonl"), filepath.Join(dir, "demos.jsonl")
	toml := fmt.Sprintf("[[llm]]\nname = \"a\"\nbase_url = %q\nmodel = \"m\"\n\n[[llm]]\nname = \"b\"\nbase_url = %q\nmodel = \"m\"\n", a.URL(), b.URL())
	for path, text := range map[string]string{cfg: toml,
		gold:  `{"id":1,"label":"Propose"}` + "\n" + `{"id":2,"labels":["Request"]}` + "\n" + `{"id":3,"label":"propose"}` + "\n",
		demos: `{"text":"I propose we share the goods.","labels":["Propose"]}` + "\n"} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	in := `{"id":1,"text":"Let us take plan B."}` + "\n" + `{"id":2,"text":"What do you need?"}` + "\n" + `{"id":3,"text":"I propose A."}` + "\n" + `{"id":4,"text":"Fine."}` + "\n"
	code, out, errOut := run(t, in, "--config", cfg, "annotate", "--instrument", "dialogue-acts", "--method", "llm", "--negotiate", "a,b",
		"--demos", demos, "--demos-k", "1", "--gold", gold)
	if code != 0 || !strings.Contains(errOut, "accuracy 0.6667 (2 of 3 texts), Cohen's kappa 0.0000") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[1] != `{"id":2,"acts":["Propose"],"gold":["Request"],"correct":false}` || lines[3] != `{"id":4,"acts":["Propose"]}` {
		t.Errorf("lines %q", lines)
	}
	if n := a.Count(openaitest.Schema("demonstration_reasoning")); n != 2 {
		t.Errorf("endpoint a was asked about the demonstration %d times, want twice (a chain and an explanation, once each)", n)
	}
	code, _, errOut = run(t, in, "annotate", "--instrument", "readability", "--gold", filepath.Join(dir, "none.jsonl"))
	if code != 2 || !strings.Contains(errOut, "--gold") {
		t.Errorf("a missing gold file: exit %d, %s", code, errOut)
	}
}
