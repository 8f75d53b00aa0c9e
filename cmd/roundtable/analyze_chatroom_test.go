package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
)

// turncoats play language-model agents that speak in the chat as
// told but reveal, in their private message, the opposite stance.
func turncoats(_ context.Context, r *openaitest.Request) openaitest.Reply {
	if r.SchemaName == "message" && strings.Contains(r.LastUser(), "Write one private message") {
		return openaitest.JSON(map[string]any{"to": []string{}, "text": "Honestly, I firmly reject the claim."})
	}
	if r.SchemaName == "survey" {
		return openaitest.JSON(map[string]any{"reasoning": "as assigned", "values": []float64{2}})
	}
	return openaitest.Responder{}.Handle(context.Background(), r)
}

// chatroomRows runs analyze with args and returns chatroom_changes.csv by
// column name, one map per row.
func chatroomRows(t *testing.T, dir string, args ...string) []map[string]string {
	t.Helper()
	if code, _, errOut := run(t, "", append([]string{"analyze", dir}, args...)...); code != 0 {
		t.Fatalf("analyze %v: exit %d: %s", args, code, errOut)
	}
	rows := readCSV(t, filepath.Join(dir, "analysis", "chatroom_changes.csv"))
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, h := range rows[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

// Unwarranted change comes from the classifier over every message, public
// and private, not from the stance the agents were assigned or report.
func TestAnalyzeChatroomClassifiesEveryMessage(t *testing.T) {
	srv := openaitest.NewServer(turncoats)
	defer srv.Close()
	dir := t.TempDir()
	code, _, errOut := run(t, "", "sim", "--protocol", "chatroom", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
		"--stances", "echo:2", "--question", "Taxes on the rich should rise.", "--agents", "4", "--rounds", "3", "--runs", "2", "--out", dir)
	if code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errOut)
	}
	rows := chatroomRows(t, dir)
	if len(rows) != 1 {
		t.Fatalf("rows %v", rows)
	}
	r := rows[0]
	// 4 agents, 3 public messages ("let us settle on the first proposal":
	// no opinion to the lexicon), 3 private ones rejecting the claim: the
	// last speaker wrote only in public.
	if r["chat_changed"] != "1.0000" || r["changed_agents"] != "3.0000" || r["classified_agents"] != "4.0000" ||
		r["no_opinion_agents"] != "1.0000" || r["classified_messages"] != "6.0000" || r["changes_toward_complement"] != "3.0000" ||
		r["agents_toward_statement"] != "0.0000" {
		t.Errorf("lexicon: %v; want every message (6 a chat) classified, the 3 private ones a change toward the complement", r)
	}
	if r["reported_chat_changed"] != "0.0000" || !strings.Contains(r["stance_from"], "keyword-lexicon (offline)") {
		t.Errorf("lexicon: %v", r)
	}

	// The same messages through the model classifiers: presence and
	// signal, k samples each, from a second fake server.
	judge := scriptedStanceJudge()
	defer judge.Close()
	rows = chatroomRows(t, dir, "--stance", "llm", "--samples", "3", "--llm-base-url", judge.URL(), "--llm-model", "judge")
	if r := rows[0]; r["changed_agents"] != "4.0000" || r["agents_toward_complement"] != "4.0000" || !strings.Contains(r["stance_from"], "classifier over every message") {
		t.Errorf("llm: %v", r)
	}
	if n := judge.Count(openaitest.Schema("opinion_signal")); n != 12*3 {
		t.Errorf("%d signal samples for 12 messages at k=3, want 36", n)
	}
	m := readCSV(t, filepath.Join(dir, "analysis", "chatroom_matrix.csv"))
	for _, row := range m[1:] {
		if want := map[bool]string{true: "12", false: "0"}[row[2] == "2" && row[4] == "-1"]; row[6] != want {
			t.Errorf("matrix row %v: want the 12 messages at 2 -> -1 only", row)
		}
	}
	// A second analyze asks the model nothing: the labels are stored.
	before := judge.Count(nil)
	chatroomRows(t, dir, "--stance", "llm", "--samples", "3", "--llm-base-url", judge.URL(), "--llm-model", "judge")
	if judge.Count(nil) != before {
		t.Errorf("analyze asked the model again: %d -> %d calls", before, judge.Count(nil))
	}
}

// The questionnaire's rows are the Likert baseline beside the chats.
func TestAnalyzeChatroomWithLikertBaseline(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--protocol", "chatroom", "--rounds", "4"}, {"--protocol", "chatroom", "--rounds", "8"}, {"--protocol", "questionnaire", "--rounds", "1"},
	} {
		if code, _, errOut := run(t, "", append([]string{"sim", "--stances", "echo:-1", "--question", "q", "--agents", "4", "--runs", "2", "--out", dir}, args...)...); code != 0 {
			t.Fatalf("sim %v: exit %d: %s", args, code, errOut)
		}
	}
	rows := chatroomRows(t, dir)
	from := map[string]bool{}
	for _, r := range rows {
		from[r["stance_from"]] = true
		if r["chat_changed"] != "0.0000" {
			t.Errorf("personas keep their stance: %v", r)
		}
	}
	if !from["Likert questionnaire (self-report)"] || len(rows) != 3 {
		t.Errorf("rows %v", rows)
	}
	m := readCSV(t, filepath.Join(dir, "analysis", "chatroom_change_vs_M.csv"))
	if len(m) != 3 || m[1][1] != "4" || m[2][1] != "8" {
		t.Errorf("change against M: %v", m)
	}
	// The offline personas answer as assigned: -1 is not in the Likert
	// baseline (strongly liberal and strongly conservative only).
	if l := readCSV(t, filepath.Join(dir, "analysis", "chatroom_matrix.csv")); len(l) != 1+3*25 {
		t.Errorf("matrix: %d rows, want 25 per condition", len(l))
	}
}

// annotate offers the offline stance lexicon too, with no statement.
func TestAnnotateStanceLexicon(t *testing.T) {
	code, out, errOut := run(t, `{"id":"x","text":"I have my doubts about it."}`, "annotate", "--instrument", "stance", "--method", "lexicon")
	want := `{"id":"x","presence":true,"label":"slightly agree (complement)","level":-1,"votes":{"slightly agree (complement)":1}}`
	if code != 0 || strings.TrimSpace(out) != want {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if code, _, errOut := run(t, "", "annotate", "--instrument", "stance", "--method", "tea-leaves"); code != 2 || !strings.Contains(errOut, "--method") {
		t.Errorf("bad method: exit %d, %q", code, errOut)
	}
}

// The one-shot Likert baseline over 10 repeats: the persona assigned 2
// answers 1 every time (deviation 1 from "strongly agree"), the one
// assigned -2 answers 0 (deviation 2): score 1 - 2 = -1, the
// conservative drifting further toward the liberal pole.
func TestAnalyzeLikertBaselineScore(t *testing.T) {
	srv := openaitest.NewServer(func(ctx context.Context, r *openaitest.Request) openaitest.Reply {
		if r.SchemaName == "survey" {
			v := 1.0
			if strings.Contains(r.System(), "It is not the case that") { // the persona assigned -2 agrees with the complement
				v = 0
			}
			return openaitest.JSON(map[string]any{"reasoning": "asked once", "values": []float64{v}})
		}
		return openaitest.Responder{}.Handle(ctx, r)
	})
	defer srv.Close()
	dir := t.TempDir()
	code, _, errOut := run(t, "", "sim", "--protocol", "questionnaire", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
		"--stances", "2,-2", "--question", "Taxes on the rich should rise.", "--agents", "2", "--rounds", "1", "--runs", "10", "--out", dir)
	if code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errOut)
	}
	chatroomRows(t, dir)
	l := readCSV(t, filepath.Join(dir, "analysis", "chatroom_likert.csv"))
	if len(l) != 2 {
		t.Fatalf("likert rows %v", l)
	}
	row := map[string]string{}
	for i, h := range l[0] {
		row[h] = l[1][i]
	}
	if row["tables"] != "10" || row["likert_score"] != "-1.0000" || row["likert_statement"] != "1.0000" || row["likert_complement"] != "2.0000" {
		t.Errorf("likert %v", row)
	}
}

// scriptedStanceJudge is a model server whose presence classifier always
// finds an opinion and whose signal classifier always reads "slightly
// agree (complement)".
func scriptedStanceJudge() *openaitest.Server {
	return openaitest.NewServer(func(_ context.Context, q *openaitest.Request) openaitest.Reply {
		ans := "yes"
		if q.SchemaName == "opinion_signal" {
			ans = "slightly agree (complement)"
		}
		return openaitest.JSON(map[string]string{"reasoning": "scripted", "label": ans})
	})
}
