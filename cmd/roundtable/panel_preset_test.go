package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestPanelPresetFromFiles serves a [[table]] panel whose items are the
// files of item_dir, which starts by itself when its seats are taken and
// lets the Facilitator vote (a panel has no vote, and the Facilitator
// never judges: it only speaks). Everyone sees the items and their
// documents before anyone speaks; the table waits for Bob, the second
// person, then starts; everyone speaks in turn; it ends by posting the
// rankings.
func TestPanelPresetFromFiles(t *testing.T) {
	dir := t.TempDir()
	for name, doc := range map[string]string{"Ann.md": "Ten years of Go; led a team of four.", "Ben.txt": "A PhD in databases."} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg := DefaultConfig()
	yes := true
	tc := TableConfig{Name: "hiring", Title: "Hiring panel", ItemDir: dir,
		ProtocolSettings: ProtocolSettings{Protocol: "panel", Question: "How good a fit is each candidate?"}}
	tc.Rounds, tc.Agents = 1, []string{"Facilitator"}
	tc.StartSettings = StartSettings{Start: "full", Seats: 3, FacilitatorVotes: &yes}
	cfg.Tables = append(cfg.Tables, tc)
	d, _, _ := configuredService(t, cfg)
	fake := d.p.(*bottest.Fake)
	d.command(bottest.Alice, d.ch, "start", map[string]string{"preset": "hiring"})
	d.sees(bottest.Alice, "in its own thread")
	th := fake.Threads(d.ch)[0]
	intro := d.post(th, "**Hiring panel").Text
	for _, want := range []string{"The items to judge: Ann, Ben.", "**Ann**\nTen years of Go; led a team of four.", "**Ben**\nA PhD in databases.",
		"Facilitator (bot: speaks).", "It starts by itself when its 3 seats are taken (2 taken now)"} {
		if !strings.Contains(intro, want) {
			t.Errorf("the intro lacks %q:\n%s", want, intro)
		}
	}
	d.command(bottest.Bob, th, "join", nil)
	d.post(th, "**The table starts**: its seats are taken.")
	// The judges speak in turn, in seat order (Alice, the Facilitator,
	// Bob), each message shown as it comes.
	d.shown(th, "bot", "It is the turn of **Alice**")
	d.say(bottest.Alice, th, "Ann has led a team.")
	d.shown(th, "Facilitator", "")
	d.shown(th, "bot", "It is the turn of **Bob**")
	d.say(bottest.Bob, th, "Ben knows databases.")
	survey := d.post(th, "**Round 1 of 1: survey")
	answer := survey.Controls[len(survey.Controls)-1]
	for _, u := range []bottest.User{bottest.Alice, bottest.Bob} {
		if answer.Label != "Answer" {
			t.Fatalf("the survey's last control is %q", answer.Label)
		}
		d.do(u.Name+" opens the survey", func(ctx context.Context) error { return fake.Click(ctx, u, th, survey.ID, answer.ID) })
		d.sees(u, "")
		d.do(u.Name+" answers", func(ctx context.Context) error {
			return fake.Submit(ctx, u, map[string]string{"v0": "1", "v1": "-1"})
		})
	}
	end := d.post(th, "**The panel has ended").Text
	if !strings.Contains(end, "Rankings of the 2 items by") || !strings.Contains(end, "1. Ann") {
		t.Errorf("the end post does not rank the items:\n%s", end)
	}
}

// shown waits for a post in thread by author ("" any) that contains text.
func (d *driver) shown(thread, author, text string) {
	d.t.Helper()
	d.waitFor(fmt.Sprintf("a post by %q with %q", author, text), func() bool {
		for _, p := range d.p.Posts(thread) {
			if (author == "" || p.Author == author) && strings.Contains(p.Text, text) {
				return true
			}
		}
		return false
	})
}
