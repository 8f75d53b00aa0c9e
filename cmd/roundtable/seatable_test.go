package main

import (
	"testing"

	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestStartRefusesAgentsThatCannotPlayTheTable: the embedded defaults
// offer every preset's agents on the start form; one that cannot play a
// plain text table is refused at start, naming it, and no table is made
// (before, the table was made and answered "internal error" to every act);
// so is a stance audit without a model (before, the table ran unaudited and
// only the server's log said so).
func TestStartRefusesAgentsThatCannotPlayTheTable(t *testing.T) {
	d, _, _ := embeddedService(t)
	fake := d.p.(*bottest.Fake)
	for agent, want := range map[string]string{
		"Trader 1":      `bot agent Trader 1 cannot sit at this table: "Trader 1" is a rule-based trader, which only plays the exchange economy`,
		"Ada (DeGroot)": `bot agent Ada (DeGroot) cannot sit at this table: "Ada (DeGroot)" is a model-free degroot agent of the dyads protocol`,
	} {
		d.command(bottest.Alice, d.ch, "start", map[string]string{"topic": "Lunch?", "agents": "Facilitator," + agent})
		d.sees(bottest.Alice, want)
	}
	d.command(bottest.Alice, d.ch, "start", map[string]string{"topic": "Lunch?", "audit": "stance", "audit_statement": "Pizza is best."})
	d.sees(bottest.Alice, "audit: the stance audit needs a language model, and this server has none configured")
	if n := len(fake.Threads(d.ch)); n != 0 {
		t.Errorf("%d tables were made; want none", n)
	}
	d.command(bottest.Alice, d.ch, "start", map[string]string{"topic": "Lunch?", "agents": "Facilitator"})
	d.sees(bottest.Alice, "in its own thread")
}
