package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestServeSlackAndDiscordEndToEnd runs one `roundtable serve` with both
// [slack] (Socket Mode against a fake Slack) and [discord] configured, and
// two LLM agents. In Slack two people and the agents complete a 2-round
// plurality table and a 2-round rated one, with a restart in the rated
// table's last vote; then a Discord table runs on the same process.
func TestServeSlackAndDiscordEndToEnd(t *testing.T) {
	llm := openaitest.NewServer(nil)
	defer llm.Close()
	sl := slackfake.New(slackfake.Options{})
	defer sl.Close()
	dc := discordtest.New(t, discordtest.Options{})
	dir := t.TempDir()
	cfg := writeConfig(t, agentsConfig(dir, llm.URL())+fmt.Sprintf(`
[slack]
bot_token_env = "RT_TEST_SLACK_BOT"
app_token_env = "RT_TEST_SLACK_APP"
api_url = %q
post_interval = "5ms"
[slack.policy]
manage_channels = true

[discord]
token_env = "RT_TEST_DISCORD_TOKEN"
api_url = %q
guilds = [%q]
`, sl.APIURL(), dc.URL(), discordtest.GuildID))
	env := map[string]string{"RT_TEST_SLACK_BOT": slackfake.BotToken, "RT_TEST_SLACK_APP": slackfake.AppToken, "RT_TEST_DISCORD_TOKEN": dc.Token()}
	srv := startServe(t, cfg, env)
	h := slackfake.NewHarness(sl, func() bot.Platform { return nil })
	d := &driver{t: t, p: h, ch: h.Channel()}

	th := d.start(map[string]string{"topic": "Where do we meet?", "rule": "plurality"})
	d.round(th, 1, 2, "A", "B")
	d.round(th, 2, 2, "A", "A")
	d.post(th, "**The table has ended")
	d.sees(bottest.Bob, "Your ballot for round 2 is recorded: A")
	for _, name := range []string{"Ada", "Bo"} {
		if !authored(h.Posts(th), name) {
			t.Errorf("no Slack message under the agent name %s", name)
		}
	}

	th = d.start(map[string]string{"topic": "How do we rate the options?", "rule": "rated"})
	d.post(th, "**Round 1 of 2: message")
	d.round(th, 1, 2, "A=5 B=1 C=1 D=1", "A=2 B=4 C=3 D=1")
	d.post(th, "**Round 2 of 2: message")
	d.say(bottest.Alice, th, "again")
	d.say(bottest.Bob, th, "again too")
	d.post(th, "**Round 2 of 2: proposal")
	d.command(bottest.Alice, th, "propose", map[string]string{"text": "Keep it"})
	d.command(bottest.Bob, th, "propose", map[string]string{"text": "Change it"})
	d.post(th, "**Round 2 of 2: vote")
	d.command(bottest.Alice, th, "vote", map[string]string{"ballot": "abstain"})
	d.sees(bottest.Alice, "Your ballot for round 2 is recorded: abstain")
	srv.stop()
	srv = startServe(t, cfg, env)
	d.command(bottest.Bob, th, "vote", map[string]string{"ballot": "abstain"})
	d.post(th, "**The table has ended")

	dd := &driver{t: t, p: dc, ch: discordtest.ChannelID}
	dth := dd.start(map[string]string{"topic": "Same process, other platform", "rule": "plurality"})
	dd.round(dth, 1, 2, "A", "A")
	dd.round(dth, 2, 2, "A", "A")
	dd.post(dth, "**The table has ended")
	srv.stop()
	checkTables(t, filepath.Join(dir, "rt.db"), 3)
}
