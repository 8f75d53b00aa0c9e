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
// offer without any model: a person and two utility traders share out
// three goods. The person reads their private utility, types allocations
// as plain rows, and the traders play every phase.
func TestBuiltInExchangePreset(t *testing.T) {
	d, db, stop := embeddedService(t)
	fake := d.p.(*bottest.Fake)
	d.command(bottest.Alice, d.ch, "start", map[string]string{"preset": deliberation.ExchangeTable})
	d.sees(bottest.Alice, "Only you see this: You are agent 1. Your utility is the product a1^0.8")
	th := fake.Threads(d.ch)[0]
	d.command(bottest.Bob, th, "join", nil)
	d.sees(bottest.Bob, "all 3 seats of this table are taken")
	for r := 1; r <= 5; r++ {
		head := fmt.Sprintf("**Round %d of 5: ", r)
		d.post(th, head+"message")
		d.say(bottest.Alice, th, "I care most about good 1.")
		d.post(th, head+"proposal")
		d.command(bottest.Alice, th, "propose", map[string]string{"text": fmt.Sprintf("%d 10 10; %d 80 10; 10 10 80", 70+r, 20-r)})
		d.sees(bottest.Alice, "Your proposal is recorded")
		mine := letterOf(d.post(th, head+"vote").Text, "by Alice") // letters stay with their proposal across rounds
		d.command(bottest.Alice, th, "vote", map[string]string{"ballot": mine})
		d.post(th, fmt.Sprintf("**Round %d result**", r))
	}
	d.post(th, "**The table has ended")
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
