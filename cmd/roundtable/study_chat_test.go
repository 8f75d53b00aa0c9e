package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestServeStudyStartedFromDiscordAndSlack: serve runs two studies beside
// Discord and Slack (their fakes, over the real clients) and the web
// channel. In Discord, someone who may not start tables is refused; a
// manager's /roundtable study start posts the cohort link and code in the
// channel, for everyone; a person who opens that link is seated. In
// Slack, "/roundtable study start NAME" opens the other study the same way.
// On the web, the host's /study offers the other study and starts it; a
// visitor who is not the host is refused.
func TestServeStudyStartedFromDiscordAndSlack(t *testing.T) {
	llm := openaitest.NewServer(nil)
	defer llm.Close()
	sl := slackfake.New(slackfake.Options{})
	defer sl.Close()
	dc := discordtest.New(t, discordtest.Options{})
	dir := t.TempDir()
	var files []string
	for _, name := range []string{"seminar", "workshop"} {
		path := filepath.Join(dir, name+".toml")
		if err := os.WriteFile(path, []byte(strings.Replace(liveStudyFile, `"seminar"`, `"`+name+`"`, 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, "--study", path)
	}
	cfg := writeConfig(t, fmt.Sprintf(`
[store]
path = %q
[web]
enabled = "on"
[[llm]]
name = "fake"
base_url = %q
model = "test-model"
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
[discord.policy]
manage_channels = true
`, filepath.Join(dir, "rt.db"), llm.URL(), sl.APIURL(), dc.URL(), discordtest.GuildID))
	env := map[string]string{"RT_TEST_SLACK_BOT": slackfake.BotToken, "RT_TEST_SLACK_APP": slackfake.AppToken, "RT_TEST_DISCORD_TOKEN": dc.Token()}
	srv := startServe(t, cfg, env, append([]string{"--web-addr", "127.0.0.1:0"}, files...)...)
	srv.waitOutput(regexp.MustCompile(`web channel at http://127\.0\.0\.1:\d+/`))

	d := &driver{t: t, p: dc, ch: discordtest.ChannelID}
	d.command(bottest.Bob, d.ch, "study", map[string]string{"action": "start", "name": "seminar"})
	d.sees(bottest.Bob, "you may not start studies here")
	d.command(bottest.Alice, d.ch, "study", map[string]string{"action": "start", "name": "seminar"})
	seatFromPost(t, d, "seminar")

	h := slackfake.NewHarness(sl, func() bot.Platform { return nil })
	s := &driver{t: t, p: h, ch: h.Channel()}
	s.do("study start", func(context.Context) error { // as typed in Slack
		_, err := sl.Command(slackfake.SlackUser(bottest.Alice), s.ch, "study start workshop")
		return err
	})
	seatFromPost(t, s, "workshop")

	// On the web, a visitor who is not the host may not start a study;
	// the host's /study offers the other one and starts it.
	hostLink := srv.waitOutput(regexp.MustCompile(`Open (http://\S+/host\?k=\S+)`))[1]
	base := hostLink[:strings.Index(hostLink, "/host?")]
	if code, _ := postStudy(t, &http.Client{}, base, "seminar"); code != http.StatusForbidden {
		t.Errorf("a visitor starts a study on the web: %d, want 403", code)
	}
	jar, _ := cookiejar.New(nil)
	host := &http.Client{Jar: jar}
	if resp, err := host.Get(hostLink); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	code, page := postStudy(t, host, base, "seminar")
	if code != http.StatusOK || !strings.Contains(page, "<h1>Study seminar</h1>") || !strings.Contains(page, "Start workshop") {
		t.Fatalf("the host starts seminar on the web: %d\n%s", code, page)
	}
	srv.stop()
}

// postStudy asks the web channel at base to start study name, as c.
func postStudy(t *testing.T, c *http.Client, base, name string) (int, string) {
	t.Helper()
	resp, err := c.PostForm(base+"/study/open", url.Values{"study": {name}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// seatFromPost waits for the channel's post that opens study name, and
// seats a person through the cohort link it gives.
func seatFromPost(t *testing.T, d *driver, name string) {
	t.Helper()
	link := regexp.MustCompile(`https?://[^\s>|)*]+/c/[A-Z0-9]{6}`)
	var found string
	d.waitFor("the study's post", func() bool {
		for _, p := range d.p.Posts(d.ch) {
			if strings.Contains(p.Text, "Study "+name+" is open") {
				found = link.FindString(p.Text)
				return found != ""
			}
		}
		return false
	})
	seatAt(t, found, "Dora")
}
