package bottest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// The suite's preset tables of the three protocols.
const (
	ChatroomPreset = "chatroom"
	DyadsPreset    = "dyads"
	// DyadsControlPreset is dyads under the no-interaction control.
	DyadsControlPreset = "dyads-control"
	PanelPreset        = "panel"
)

// protocolPresets are the suite's preset tables of the protocols.
func protocolPresets() map[string]bot.Preset {
	base := func(title string, rounds int, pr *roundtable.Protocol) roundtable.Config {
		return roundtable.Config{Title: title, Task: roundtable.TaskSpec{Kind: "text", Topic: title}, Rule: vote.Plurality, Rounds: rounds,
			Mode: roundtable.Sealed, Durations: roundtable.Durations{Message: phaseTime, Proposal: phaseTime, Vote: phaseTime}, Protocol: pr}
	}
	return map[string]bot.Preset{
		ChatroomPreset: chatroomPreset(),
		DyadsPreset: {Name: DyadsPreset, Agents: []string{"Scribe"},
			Config: base("Vaccines dyads", 2, dyads.Preset(protocol.Settings{Question: "Vaccines cause autism."}))},
		DyadsControlPreset: {Name: DyadsControlPreset, Agents: []string{"Scribe"},
			Config: base("Vaccines, no interaction", 3, dyads.Preset(protocol.Settings{Question: "Vaccines cause autism.", Control: dyads.ControlNoInteraction}))},
		PanelPreset: {Name: PanelPreset, Agents: []string{"Scribe"},
			Config: base("Hiring panel", 3, panel.Preset(protocol.Settings{Question: "How good a fit?", Items: []string{"Ann", "Ben"}}))},
	}
}

func chatroomPreset() bot.Preset {
	cfg := roundtable.Config{Title: "Pineapple chat", Task: roundtable.TaskSpec{Kind: "text", Topic: "Pineapple belongs on pizza."},
		Rule: vote.Plurality, Rounds: 3, Mode: roundtable.Sealed,
		Durations: roundtable.Durations{Message: phaseTime, Proposal: phaseTime, Vote: phaseTime},
		Protocol:  chatroom.Preset(protocol.Settings{Question: "Pineapple belongs on pizza."})}
	return bot.Preset{Name: ChatroomPreset, Config: cfg, Agents: []string{"Scribe"}}
}

// turnOf waits for round r's phase to open and returns the name of the
// one participant whose turn it is, from the log (the phase's post may
// already be closed when an agent acted at once).
func (e *env) turnOf(r int, phase roundtable.Phase) string {
	e.t.Helper()
	return e.opening(r, phase, func(o roundtable.PhaseOpened) []string { return one(o.Turn) })[0]
}

// opening waits for round r's phase to open with the participants pick
// returns (nil until then), and returns their names.
func (e *env) opening(r int, phase roundtable.Phase, pick func(roundtable.PhaseOpened) []string) []string {
	e.t.Helper()
	var names []string
	e.waitFor(fmt.Sprintf("round %d's %s phase", r, phase), func() bool {
		evs := e.events()
		s, err := roundtable.Replay(evs)
		if err != nil {
			e.t.Fatal(err)
		}
		for _, ev := range evs {
			if o, ok := ev.Data.(roundtable.PhaseOpened); ok && o.Round == r && o.Phase == phase {
				if ids := pick(o); ids != nil {
					for _, id := range ids {
						p, _ := s.Participant(id)
						names = append(names, p.Name)
					}
					return true
				}
			}
		}
		return false
	})
	return names
}

// one is ids when it holds exactly one participant, else nil.
func one(ids []string) []string {
	if len(ids) == 1 {
		return ids
	}
	return nil
}

// startQuiet starts a table as Alice and waits for its intro (its first
// phase may close at once when an agent has the first turn).
func (e *env) startQuiet(opts map[string]string, intro string) {
	e.t.Helper()
	before := len(e.h.Threads(e.h.Channel()))
	e.do("start command", func(ctx context.Context) error { return e.h.Command(ctx, Alice, e.h.Channel(), "start", opts) })
	e.waitFor("the table's thread", func() bool { return len(e.h.Threads(e.h.Channel())) > before })
	threads := e.h.Threads(e.h.Channel())
	e.thread = threads[len(threads)-1]
	e.post(intro)
}

// testProtocolTurns runs a chatroom: two people and an agent; each round
// one speaker other than the last; then private messages by all but the
// last speaker and a private survey. Out-of-turn actions are refused with
// the reason, and nothing private reaches the thread.
func testProtocolTurns(t *testing.T, e *env) {
	e.startQuiet(map[string]string{"preset": ChatroomPreset}, "**Pineapple chat")
	if intro := e.post("**Pineapple chat").Text; strings.Contains(intro, "Rule:") || strings.Contains(intro, "Decide together") {
		t.Errorf("the intro of a chatroom, which never votes, speaks of a rule or a decision:\n%s", intro)
	}
	e.click(Bob, "**Pineapple chat", "Join")
	e.private(Bob, "You joined")
	e.begin()
	people := map[string]User{Alice.Name: Alice, Bob.Name: Bob}
	msgs := 0
	var last string
	for r := 1; r <= 3; r++ {
		prefix := fmt.Sprintf("**Round %d of 3: message", r)
		who := e.turnOf(r, roundtable.PhaseMessage)
		if who == last {
			t.Errorf("round %d: %s speaks twice in a row", r, who)
		}
		last = who
		if holder, ok := people[who]; ok {
			e.mustContain("turn", e.post(prefix).Text, "It is the turn of **"+who+"**")
			other := Alice
			if holder == Alice {
				other = Bob
			}
			e.form(other, prefix, "Write message", fmt.Sprintf("Round %d message", r), map[string]string{"text": "out of turn"})
			e.private(other, fmt.Sprintf("only %s may act in the message phase of round %d", who, r))
			e.form(holder, prefix, "Write message", fmt.Sprintf("Round %d message", r), map[string]string{"text": fmt.Sprintf("my turn %d", r)})
		}
		msgs++
		e.waitEvents("message_posted", msgs)
	}
	e.clock.Advance(time.Millisecond) // nothing waits on the clock: every phase closed when its speaker spoke
	priv := "**Round 3 of 3: private phase"
	e.post(priv)
	if u, ok := people[last]; ok { // the last speaker first, while the phase is open
		e.form(u, priv, "Write private message", "Round 3 message", map[string]string{"text": "secret of " + last})
		e.private(u, "may act in the private phase of round 3")
	}
	for name, u := range people {
		if name != last {
			e.form(u, priv, "Write private message", "Round 3 message", map[string]string{"text": "secret of " + name})
			msgs++
		}
	}
	if last != "Scribe" {
		msgs++ // Scribe writes one too
	}
	e.waitEvents("message_posted", msgs)
	surv := "**Round 3 of 3: survey phase"
	e.mustContain("survey post", e.post(surv).Text, "-2 to 2")
	e.form(Alice, surv, "Answer", "Round 3 survey", map[string]string{"v0": "7"})
	e.private(Alice, "off the scale")
	for _, u := range people {
		e.form(u, surv, "Answer", "Round 3 survey", map[string]string{"v0": "1"})
	}
	e.post("**The table has ended")
	evs := e.events()
	if n := count(evs, "survey_answered"); n != 3 {
		t.Errorf("%d survey answers, want 3", n)
	}
	for _, p := range e.h.Posts(e.thread) {
		if strings.Contains(p.Text, "secret of") || strings.Contains(p.Text, "privately") {
			t.Errorf("a private message reached the thread: %q", p.Text)
		}
	}
	s, err := roundtable.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	if s.EndReason != roundtable.EndRounds {
		t.Errorf("end %q", s.EndReason)
	}
}
