package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	deliberation "github.com/roundtable-ai/roundtable/roundtable/protocol/roundtable"
)

// TestBuiltInExchangePreset plays the table that the embedded defaults
// offer without any model: two people and two utility traders share out
// the goods. The economy waits for its people and is sized when the
// organiser starts it: four seats, four agents, four goods, every seat
// with its utility (none refused, no trader without one). Each person
// reads their own utility once it starts, types allocations as plain
// rows, and the traders, who speak under their own names, play every
// phase. Someone who comes after the start has no share and is refused.
func TestBuiltInExchangePreset(t *testing.T) {
	d, db, stop := embeddedService(t)
	fake := d.p.(*bottest.Fake)
	d.command(bottest.Alice, d.ch, "start", map[string]string{"preset": deliberation.ExchangeTable})
	d.sees(bottest.Alice, "It starts when the organiser presses **Start**")
	th := fake.Threads(d.ch)[0]
	d.command(bottest.Bob, th, "join", nil)
	d.sees(bottest.Bob, "You joined the table.")
	d.command(bottest.Alice, th, "begin", nil)
	d.sees(bottest.Alice, "Only you see this: You are agent 1. Your utility is the product a1^0.8")
	d.command(bottest.Bob, th, "status", nil)
	d.sees(bottest.Bob, "Only you see this: You are agent 4. Your utility is the product a1^0.06667 * a2^0.06667 * a3^0.06667 * a4^0.8")
	if started := d.post(th, "**The table starts**: its organiser started it.").Text; !strings.Contains(started, "agent 2 is Trader 1, agent 3 is Trader 2 and agent 4 is Bob") {
		t.Errorf("the start post does not map the allocations' rows to the seats: %q", started)
	}
	d.command(bottest.Carol, th, "join", nil)
	d.sees(bottest.Carol, "This table started with 4 seats, one share each, and all are taken")
	for r := 1; r <= 5; r++ {
		head := fmt.Sprintf("**Round %d of 5: ", r)
		d.post(th, head+"message")
		d.say(bottest.Alice, th, "I care most about good 1.")
		d.say(bottest.Bob, th, "I care most about good 2.")
		d.post(th, head+"proposal")
		plan := fmt.Sprintf("%d 10 10 10; 10 70 10 10; 10 10 70 10; %d 10 10 70", 60+r, 20-r)
		d.command(bottest.Alice, th, "propose", map[string]string{"text": plan})
		d.sees(bottest.Alice, "Your proposal is recorded")
		d.command(bottest.Bob, th, "propose", map[string]string{"text": plan})
		mine := letterOf(d.post(th, head+"vote").Text, "by Alice") // letters stay with their proposal across rounds
		d.command(bottest.Alice, th, "vote", map[string]string{"ballot": mine})
		d.command(bottest.Bob, th, "vote", map[string]string{"ballot": mine})
		d.post(th, fmt.Sprintf("**Round %d result**", r))
	}
	d.post(th, "**The table has ended")
	if said := d.post(th, "Trader 1 here."); said.Author != "Trader 1" {
		t.Errorf("Trader 1's statement is posted as %q", said.Author)
	}
	stop()

	id, _, _ := db.Lookup(context.Background(), "fake:"+th)
	evs, err := db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	s, err := roundtable.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	traders := 0
	for _, r := range s.Rounds {
		if len(r.Failures) > 0 || len(r.Rejected) > 0 {
			t.Errorf("round %d: failures %+v, rejected %+v", r.Round, r.Failures, r.Rejected)
		}
		for _, p := range r.Proposals {
			if p.By != "fake:1001" {
				traders++
			}
		}
	}
	if traders == 0 {
		t.Error("the traders proposed nothing")
	}
	if s.Output == nil {
		t.Error("five rounds of majority voting decided nothing")
	}
}

// letterOf returns the letter of the candidate whose line in a vote post
// ("- **C** ...: text") contains text.
func letterOf(post, text string) string {
	for _, line := range strings.Split(post, "\n") {
		if rest, ok := strings.CutPrefix(line, "- **"); ok && strings.Contains(line, text) {
			letter, _, _ := strings.Cut(rest, "**")
			return letter
		}
	}
	return "?"
}
