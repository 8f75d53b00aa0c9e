package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestServeDiscordEndToEnd runs `roundtable serve` on a config file whose
// [discord] section points at a fake Discord, with two LLM agents on a
// fake OpenAI-compatible server. Two people and the two agents complete a
// 2-round plurality table and a 2-round ranked one; the bot is stopped in
// the ranked table's vote and started again.
func TestServeDiscordEndToEnd(t *testing.T) {
	llm := openaitest.NewServer(nil)
	defer llm.Close()
	dc := discordtest.New(t, discordtest.Options{})
	dir := t.TempDir()
	cfg := writeConfig(t, agentsConfig(dir, llm.URL())+fmt.Sprintf(`
[discord]
token_env = "RT_TEST_DISCORD_TOKEN"
api_url = %q
guilds = [%q]
[discord.policy]
manage_channels = true
`, dc.URL(), discordtest.GuildID))
	env := map[string]string{"RT_TEST_DISCORD_TOKEN": dc.Token()}
	srv := startServe(t, cfg, env)
	d := &driver{t: t, p: dc, ch: discordtest.ChannelID}

	// Plurality.
	th := d.start(map[string]string{"topic": "Which feature next?", "rule": "plurality"})
	d.round(th, 1, 2, "A", "A")
	d.round(th, 2, 2, "B", "abstain")
	d.post(th, "**The table has ended")
	d.sees(bottest.Alice, "Your ballot for round 1 is recorded: A")
	d.sees(bottest.Bob, "Your ballot for round 2 is recorded: abstain")
	for _, name := range []string{"Ada", "Bo"} {
		if !authored(dc.Posts(th), name) {
			t.Errorf("no message under the agent name %s", name)
		}
	}
	d.post(th, "**Alice**: Alice's thoughts for round 1")

	// Ranked, with a restart in the middle of round 2's vote.
	th = d.start(map[string]string{"topic": "What do we test first?", "rule": "ranked"})
	d.round(th, 1, 2, "B > A", "A > B > C")
	d.post(th, "**Round 2 of 2: message")
	d.say(bottest.Alice, th, "round two")
	d.say(bottest.Bob, th, "round two too")
	d.post(th, "**Round 2 of 2: proposal")
	d.command(bottest.Alice, th, "propose", map[string]string{"text": "Test the parser"})
	d.command(bottest.Bob, th, "propose", map[string]string{"text": "Test the store"})
	d.post(th, "**Round 2 of 2: vote")
	d.command(bottest.Alice, th, "vote", map[string]string{"ballot": "A > B"})
	d.sees(bottest.Alice, "Your ballot for round 2 is recorded: A > B")
	srv.stop()
	srv = startServe(t, cfg, env)
	d.command(bottest.Bob, th, "vote", map[string]string{"ballot": "B > A"})
	d.post(th, "**Round 2 result**")
	d.post(th, "**The table has ended")
	seen := map[string]bool{}
	for _, p := range dc.Posts(th) {
		if p.Author == "bot" && seen[p.Text] {
			t.Errorf("posted twice: %q", p.Text)
		}
		seen[p.Text] = true
	}
	srv.stop()
	states := checkTables(t, filepath.Join(dir, "rt.db"), 2)
	for _, s := range states {
		if s.Config.Rule == "ranked" && s.Rounds[1].Tally.Counted != 4 {
			t.Errorf("ranked round 2 counted %d ballots; Alice's ballot from before the restart must count", s.Rounds[1].Tally.Counted)
		}
	}
	if n := llm.Count(nil); n < 2*2*3*2 {
		t.Errorf("%d model calls, want at least one per agent, phase, round and table", n)
	}
}

func authored(posts []bottest.Post, name string) bool {
	for _, p := range posts {
		if strings.EqualFold(p.Author, name) {
			return true
		}
	}
	return false
}
