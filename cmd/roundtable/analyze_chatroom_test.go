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

// Unwarranted change comes from the classifier over the private
// messages, not from the stance the agents were assigned or report.
func TestAnalyzeChatroomClassifiesPrivateMessages(t *testing.T) {
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
	if r["chat_changed"] != "1.0000" || r["changed_agents"] != "3.0000" || r["classified_agents"] != "3.0000" {
		t.Errorf("lexicon: %v; want every private message (3 a chat) classified as a change", r)
	}
	if r["reported_chat_changed"] != "0.0000" || !strings.Contains(r["stance_from"], "keyword-lexicon (offline)") {
		t.Errorf("lexicon: %v", r)
	}

	// The same messages through the model classifiers: presence and
	// signal, k samples each, from a second fake server.
	judge := openaitest.NewServer(func(_ context.Context, q *openaitest.Request) openaitest.Reply {
		ans := "yes"
		if q.SchemaName == "opinion_signal" {
			ans = "slightly agree (complement)"
		}
		return openaitest.JSON(map[string]string{"reasoning": "scripted", "label": ans})
	})
	defer judge.Close()
	rows = chatroomRows(t, dir, "--stance", "llm", "--samples", "3", "--llm-base-url", judge.URL(), "--llm-model", "judge")
	if r := rows[0]; r["changed_agents"] != "3.0000" || !strings.Contains(r["stance_from"], "classifier over the private messages") {
		t.Errorf("llm: %v", r)
	}
	if n := judge.Count(openaitest.Schema("opinion_signal")); n != 6*3 {
		t.Errorf("%d signal samples for 6 private messages at k=3, want 18", n)
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
