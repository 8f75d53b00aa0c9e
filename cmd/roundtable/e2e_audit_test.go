package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/audit"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report/reporttest"
	"github.com/roundtable-ai/roundtable/store"
)

// auditedLLM plays the agents and the stance classifier; while down is
// set, every stance question is refused (401).
func auditedLLM(down *atomic.Bool) openaitest.Handler {
	agents := openaitest.Responder{}
	return func(ctx context.Context, r *openaitest.Request) openaitest.Reply {
		switch r.SchemaName {
		case "opinion_presence":
			if down.Load() {
				return openaitest.Unauthorized()
			}
			return openaitest.JSON(map[string]string{"reasoning": "scripted", "label": "yes"})
		case "opinion_signal":
			if down.Load() {
				return openaitest.Unauthorized()
			}
			return openaitest.JSON(map[string]string{"reasoning": "scripted", "label": "slightly agree (statement)"})
		}
		return agents.Handle(ctx, r)
	}
}

const auditConfig = `
audit = ["sentiment", "stance"]
audit_statement = "Homework should be abolished."
audit_samples = 3
audit_endpoint = "judge"
self_report = true
`

// TestServeAuditedTablesOnSlackAndDiscord runs an audited table in Slack
// with two people and two LLM agents: every message is annotated in the
// background, Alice (the organiser) gets each round's audit privately (an
// ephemeral message), and every round ends with the self-report survey:
// Bob reports his stance with one click, and Alice closes round 1's
// survey without answering (the round waits for nobody). The answers are
// SurveyAnswered events: Alice's export holds everyone's, Bob's his own
// only, and the export carries the audit. A second table, audited while
// the model is down, runs to its end with its stance annotations marked
// missing, with the reason. A third, on Discord, sends Alice the
// summaries as direct messages, and Alice's export without names (the
// organiser's) holds every answer, pseudonymised. Then `export --audit`
// and `analyze` read the stored audits.
func TestServeAuditedTablesOnSlackAndDiscord(t *testing.T) {
	var down atomic.Bool
	llm := openaitest.NewServer(auditedLLM(&down))
	defer llm.Close()
	sl := slackfake.New(slackfake.Options{})
	defer sl.Close()
	dc := discordtest.New(t, discordtest.Options{})
	dir := t.TempDir()
	body := agentsConfig(dir, llm.URL())
	body = strings.Replace(body, "[bot]\n", "[bot]\n"+auditConfig, 1)
	cfg := writeConfig(t, body+fmt.Sprintf(`
[[llm]]
name = "judge"
base_url = %q
model = "judge-model"
max_retries = 1

[slack]
bot_token_env = "RT_TEST_SLACK_BOT"
app_token_env = "RT_TEST_SLACK_APP"
api_url = %q
post_interval = "5ms"

[discord]
token_env = "RT_TEST_DISCORD_TOKEN"
api_url = %q
guilds = [%q]
`, llm.URL(), sl.APIURL(), dc.URL(), discordtest.GuildID))
	env := map[string]string{"RT_TEST_SLACK_BOT": slackfake.BotToken, "RT_TEST_SLACK_APP": slackfake.AppToken, "RT_TEST_DISCORD_TOKEN": dc.Token()}
	srv := startServe(t, cfg, env)
	h := slackfake.NewHarness(sl, func() bot.Platform { return nil })
	d := &driver{t: t, p: h, ch: h.Channel()}

	th := d.start(map[string]string{"topic": "Should we drop homework?", "rule": "plurality"})
	d.round(th, 1, 2, "A", "B")
	d.survey(th, 1, 2, map[bottest.User]string{bottest.Bob: "strongly agree"})
	d.sees(bottest.Bob, "Recorded privately for round 1: strongly agree")
	d.sees(bottest.Alice, "Audit of round 1")
	d.round(th, 2, 2, "A", "A")
	d.survey(th, 2, 2, map[bottest.User]string{bottest.Alice: "neutral", bottest.Bob: "slightly agree"})
	d.post(th, "**The table has ended")
	d.sees(bottest.Alice, "Audit of round 2")
	d.command(bottest.Alice, th, "export", map[string]string{"names": "keep"})
	d.sees(bottest.Alice, ".audit.jsonl")
	d.command(bottest.Bob, th, "export", nil)
	// Bob 2, Alice 1 and the agents 2 each: all in Alice's export, Bob's
	// own alone in his.
	d.checkSurveyExports(h, map[bottest.User][2]int{bottest.Alice: {7, 0}, bottest.Bob: {2, 5}})

	down.Store(true)
	th2 := d.start(map[string]string{"topic": "And with the model down?", "rule": "plurality"})
	for r := 1; r <= 2; r++ {
		d.round(th2, r, 2, "A", "A")
		d.survey(th2, r, 2, map[bottest.User]string{bottest.Alice: "neutral", bottest.Bob: "neutral"})
	}
	d.post(th2, "**The table has ended")
	d.sees(bottest.Alice, "measurement(s) missing")

	// On Discord the organiser's summaries come as direct messages.
	down.Store(false)
	dd := &driver{t: t, p: dc, ch: discordtest.ChannelID}
	dth := dd.start(map[string]string{"topic": "Homework, on Discord?", "rule": "plurality"})
	dd.round(dth, 1, 2, "A", "A")
	dd.sees(bottest.Alice, "Audit of round 1")
	dd.survey(dth, 1, 2, map[bottest.User]string{bottest.Alice: "strongly disagree", bottest.Bob: "neutral"})
	dd.round(dth, 2, 2, "A", "A")
	dd.survey(dth, 2, 2, map[bottest.User]string{bottest.Alice: "neutral", bottest.Bob: "neutral"})
	dd.post(dth, "**The table has ended")
	// Alice, who started the table, exports it pseudonymised: the
	// organiser's export holds every answer; Bob's his own.
	dd.command(bottest.Alice, dth, "export", nil)
	dd.command(bottest.Bob, dth, "export", nil)
	dd.checkSurveyExports(discordtest.NewHarness(dc, slog.New(slog.DiscardHandler)), map[bottest.User][2]int{bottest.Alice: {8, 0}, bottest.Bob: {2, 6}})
	srv.stop()

	states := checkTables(t, filepath.Join(dir, "rt.db"), 3)
	db, err := store.Open(filepath.Join(dir, "rt.db"), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, st := range states {
		checkAudit(t, db, st, st.Config.Task.Topic == "And with the model down?")
	}
	db.Close()
	checkAuditReports(t, filepath.Join(dir, "rt.db"))
}

// checkAuditReports runs `roundtable export --audit` and `roundtable
// analyze` on the stored tables: the audit file and reports are written.
func checkAuditReports(t *testing.T, dbPath string) {
	t.Helper()
	out := t.TempDir()
	auditFile := filepath.Join(out, "audit.jsonl")
	if code, _, stderr := run(t, "", "export", "--db", dbPath, "--pseudonymize", "--audit", auditFile, "-o", filepath.Join(out, "log.jsonl")); code != 0 {
		t.Fatalf("export --audit: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(auditFile)
	if err != nil || !strings.Contains(string(b), `"instrument":"stance"`) || strings.Contains(string(b), "slack:U") {
		t.Errorf("pseudonymised audit export (%v):\n%.400s", err, b)
	}
	// The operator's export holds the self-reports: survey answers,
	// pseudonymised.
	b, err = os.ReadFile(filepath.Join(out, "log.jsonl"))
	if n := strings.Count(string(b), `"type":"survey_answered"`); err != nil || n != 7+8+8 || strings.Contains(string(b), "slack:U") || !strings.Contains(string(b), `"actor":"human-`) {
		t.Errorf("pseudonymised log export: %d survey answers, want 23 (%v)", n, err)
	}
	if code, stdout, stderr := run(t, "", "analyze", "--db", dbPath, "--out", out); code != 0 {
		t.Fatalf("analyze: exit %d: %s %s", code, stdout, stderr)
	}
	summary, err := os.ReadFile(filepath.Join(out, "audit", "audit_summary.csv"))
	if err != nil || !strings.Contains(string(summary), "tables,3") || !strings.Contains(string(summary), "kappa_pairs,") {
		t.Errorf("audit summary (%v):\n%s", err, summary)
	}
	// One stance chart per table, but the table whose model was down has
	// no stance to draw: an empty chart is not written.
	for _, ext := range []string{"svg", "png"} {
		if figs, _ := filepath.Glob(filepath.Join(out, "audit", "audit_stance_*."+ext)); len(figs) != 2 {
			t.Errorf("stance %s figures %v, want one per table with a stance (2 of 3)", ext, figs)
		}
	}
	files, _ := filepath.Glob(filepath.Join(out, "audit", "*"))
	reporttest.CheckFiles(t, files)
}

// checkAudit checks that every message of st has a sentiment and a stance
// annotation, stance ones missing with a reason when the model was down,
// and that Bob's self-report is stored in the first table.
func checkAudit(t *testing.T, db *store.DB, st *roundtable.State, down bool) {
	t.Helper()
	anns, err := db.Annotations(context.Background(), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	msgs := 0
	for _, r := range st.Rounds {
		msgs += len(r.Messages)
	}
	count := map[string]int{}
	for _, a := range anns {
		count[a.Instrument]++
		if a.Instrument == "stance" && down && a.Missing == "" {
			t.Errorf("table %s: stance annotation of %d not missing with the reason: %q", st.ID, a.Seq, a.Missing)
		}
		if a.Instrument == "sentiment" && a.Missing != "" {
			t.Errorf("table %s: offline sentiment missing: %q", st.ID, a.Missing)
		}
	}
	if msgs < 4 || count["sentiment"] != msgs || count["stance"] != msgs {
		t.Errorf("table %s: %d messages, annotations %v", st.ID, msgs, count)
	}
	if count[audit.SelfReportInstrument] != 0 {
		t.Errorf("table %s: %d self-report annotations; self-reports are survey answers", st.ID, count[audit.SelfReportInstrument])
	}
}

// survey answers round r's self-report survey: each person in answers
// clicks a level; when Alice has none, she closes the phase, which would
// otherwise wait for her until its deadline.
func (d *driver) survey(thread string, r, rounds int, answers map[bottest.User]string) {
	d.t.Helper()
	ask := d.post(thread, fmt.Sprintf("**Round %d of %d: survey phase", r, rounds))
	for u, level := range answers {
		d.do(u.Name+"'s self-report", func(ctx context.Context) error {
			return d.p.Click(ctx, u, thread, ask.ID, controlLabelled(d.t, ask, level))
		})
		d.sees(u, fmt.Sprintf("Recorded privately for round %d: %s", r, level))
	}
	if _, ok := answers[bottest.Alice]; !ok {
		d.command(bottest.Alice, thread, "close", nil)
	}
}

// checkSurveyExports waits, per person, for an exported log holding want[0]
// survey answers and withholding want[1].
func (d *driver) checkSurveyExports(h bottest.FileReceiver, want map[bottest.User][2]int) {
	d.t.Helper()
	for u, w := range want {
		var got [2]int
		d.waitFor(fmt.Sprintf("%s's export with %v survey answers", u.Name, w), func() bool {
			for _, f := range h.ReceivedFiles(u) {
				if strings.HasSuffix(f.Name, ".jsonl") && !strings.HasSuffix(f.Name, ".audit.jsonl") {
					got = [2]int{strings.Count(string(f.Data), `"type":"survey_answered","actor"`), strings.Count(string(f.Data), `{"type":"survey_answered","round"`)}
				}
			}
			return got == w
		})
	}
}

func controlLabelled(t *testing.T, p bottest.Post, label string) string {
	t.Helper()
	for _, c := range p.Controls {
		if c.Label == label {
			return c.ID
		}
	}
	t.Fatalf("post %q has no control %q: %+v", p.Text, label, p.Controls)
	return ""
}
