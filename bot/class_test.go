package bot_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// The Facilitator does not vote unless the organiser asks for it, and
// says which: the intro lists its parts and its greeting says it does not
// vote. At a table that did not ask, the people's two ballots close the
// vote phase and decide alone; at one that asked, its ballot is cast and
// counted.
func TestFacilitatorVotesOnlyWhenAsked(t *testing.T) {
	for _, c := range []struct {
		asked           string
		parts, greeting string
		ballots         int
	}{
		{"", "Facilitator (bot: speaks)", "I do not vote here", 2},
		{"yes", "Facilitator (bot: speaks, votes)", "I will back whichever proposal has the broadest support", 3},
	} {
		t.Run("facilitator_votes="+c.asked, func(t *testing.T) {
			e := newClassEnv(t)
			th := e.create(map[string]string{"topic": "Field trip?", "agents": "Facilitator", "facilitator_votes": c.asked})
			e.join(bottest.Bob, th)
			e.waitFor("the intro to list the Facilitator's parts", func() bool {
				return strings.Contains(e.intro(th).Text, "At the table: Alice, "+c.parts+", Bob.")
			})
			e.command(bottest.Alice, th, "begin", nil)
			e.post(th, "**Round 1 of 1: message")
			e.say(bottest.Alice, th, "The museum is close.")
			e.say(bottest.Bob, th, "The museum is free.")
			e.post(th, "**Round 1 of 1: proposal") // sealed: the messages come out as the phase closes
			if hello := e.said(th, "Facilitator", "Hello"); !strings.Contains(hello.Text, c.greeting) {
				t.Errorf("the greeting %q does not say %q", hello.Text, c.greeting)
			}
			e.command(bottest.Alice, th, "propose", map[string]string{"text": "The museum"})
			e.clock.Advance(phase) // Bob proposes nothing: the phase runs to its deadline
			e.post(th, "**Round 1 of 1: vote")
			e.command(bottest.Alice, th, "vote", map[string]string{"ballot": "A"})
			e.command(bottest.Bob, th, "vote", map[string]string{"ballot": "A"})
			e.post(th, "**Round 1 result**") // the phase closes once every voter has voted: the people alone, or with the Facilitator
			var by []string
			for _, ev := range e.events(th) {
				if _, ok := ev.Data.(roundtable.BallotCast); ok {
					by = append(by, ev.Actor)
				}
			}
			if len(by) != c.ballots || slices.Contains(by, "agent:facilitator") != (c.asked == "yes") {
				t.Errorf("ballots cast by %v; want %d, the Facilitator's only if asked", by, c.ballots)
			}
			s := e.state(th)
			if f, _ := s.Participant("agent:facilitator"); f.Plays(roundtable.PartVote) != (c.asked == "yes") {
				t.Errorf("the Facilitator's seat records parts %v", f.Parts)
			}
		})
	}
}

// The create form offers each bot with its parts: the Facilitator
// speaks, and votes only where the server or the preset asks for it.
func TestOfferSaysWhatEachBotDoes(t *testing.T) {
	e := newClassEnv(t)
	offers, err := e.tbls.Offer("")
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string][]roundtable.Part{}
	for _, o := range offers {
		parts[o.Name] = o.Parts
	}
	if got := parts["Facilitator"]; !slices.Equal(got, []roundtable.Part{roundtable.PartSpeak}) {
		t.Errorf("the Facilitator is offered as %v; want it to speak only", got)
	}
	if got := parts["Scribe"]; !slices.Equal(got, []roundtable.Part{roundtable.PartSpeak, roundtable.PartPropose, roundtable.PartVote}) {
		t.Errorf("the Scribe is offered as %v", got)
	}
	if _, err := e.tbls.Offer("no such preset"); roundtable.ErrorCode(err) != roundtable.NotFound {
		t.Errorf("an unknown preset's offer: %v", err)
	}
}

// A panel live: the items and their documents, given at the start, are
// shown to everyone before anyone speaks; the people and the bot speak
// and rate the items; the table ends by posting the rankings, and the
// read API gives the rankings, each judge's trajectory and every survey
// answer to the organiser (a judge sees their own answers only).
func TestPanelShowsItsItemsThenRanksThem(t *testing.T) {
	e := newClassEnv(t)
	th := e.create(map[string]string{"preset": "panel",
		"item1_title": "Ann", "item1_document": "Ten years of Go; led a team of four.",
		"item2_title": "Ben", "item2_document": "A PhD in databases; no team yet."})
	intro := e.intro(th).Text
	for _, want := range []string{"The items to judge: Ann, Ben.", "**Ann**\nTen years of Go; led a team of four.", "**Ben**\nA PhD in databases; no team yet."} {
		if !strings.Contains(intro, want) {
			t.Errorf("the intro does not show %q before the start:\n%s", want, intro)
		}
	}
	e.join(bottest.Bob, th)
	e.command(bottest.Alice, th, "begin", nil)
	e.post(th, "**Round 1 of 1: message")
	people := map[string]bottest.User{"fake:" + bottest.Alice.ID: bottest.Alice, "fake:" + bottest.Bob.ID: bottest.Bob}
	spoke := map[string]bool{}
	e.waitFor("every judge's turn to speak", func() bool { // the judges speak in turn
		s := e.state(th)
		if s.Phase != roundtable.PhaseMessage || s.Closed {
			return s.Round == 1 && s.Phase == roundtable.PhaseSurvey
		}
		if u, ok := people[strings.Join(s.Turn, "")]; ok && !spoke[u.ID] {
			spoke[u.ID] = true
			e.say(u, th, u.Name+" has read both documents.")
		}
		return false
	})
	if len(spoke) != 2 {
		t.Errorf("%d of the 2 people had a turn to speak", len(spoke))
	}
	e.post(th, "**Round 1 of 1: survey")
	e.form(bottest.Alice, th, "**Round 1 of 1: survey", "Answer", map[string]string{"v0": "1", "v1": "-0.5"})
	e.form(bottest.Bob, th, "**Round 1 of 1: survey", "Answer", map[string]string{"v0": "0.5", "v1": "0"})
	end := e.post(th, "**The panel has ended").Text
	for _, want := range []string{"Rankings of the 2 items by 3 judges (best first):", "- Borda count of everyone's final views: 1. Ann", "- Tiers", "- Gut feeling"} {
		if !strings.Contains(end, want) {
			t.Errorf("the end post lacks %q:\n%s", want, end)
		}
	}
	ctx := context.Background()
	alice, bob := bot.ParticipantID("fake", bottest.Alice.ID), bot.ParticipantID("fake", bottest.Bob.ID)
	org, err := e.tbls.Panel(ctx, th, roundtable.Viewer{Participant: alice, Researcher: true, Organiser: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(org.Items, []string{"Ann", "Ben"}) || org.Judges != 3 || len(org.Answers) != 3 ||
		len(org.Trajectories[bob]) != 2 || org.Names[bob] != "Bob" {
		t.Errorf("the organiser reads the panel as %+v", org)
	}
	mine, err := e.tbls.Panel(ctx, th, roundtable.Viewer{Participant: bob})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range mine.Answers {
		if a.By != bob {
			t.Errorf("Bob reads %s's answer %+v", a.By, a)
		}
	}
	if len(mine.Answers) == 0 {
		t.Error("Bob does not read his own answer")
	}
	if _, err := e.tbls.Panel(ctx, e.create(map[string]string{"topic": "Not a panel"}), roundtable.Viewer{Participant: alice}); roundtable.ErrorCode(err) != roundtable.Invalid {
		t.Errorf("a table that judges no items gives panel results: %v", err)
	}
}

// At a dyads table the pairs are drawn among everyone seated when the
// organiser starts it, and a person's step waits for them until its
// deadline: with two people and one bot, every pair holds a person, and
// no round's step closes before its person acts.
func TestDyadsPairThePeopleAndWaitForThem(t *testing.T) {
	e := newClassEnv(t)
	th := e.create(map[string]string{"preset": "dyads"})
	e.command(bottest.Alice, th, "begin", nil)
	e.mustBeTold(bottest.Alice, "The table has started")
	e.join(bottest.Bob, th) // late: the rounds draw him like anyone
	people := map[string]bottest.User{"fake:" + bottest.Alice.ID: bottest.Alice, "fake:" + bottest.Bob.ID: bottest.Bob}
	for r := 1; r <= 2; r++ {
		var pair []string
		e.waitFor("the round's pair", func() bool {
			for _, o := range e.openings(th) {
				if o.Round == r && o.Phase == roundtable.PhaseMessage && len(o.Pair) == 2 {
					pair = o.Pair
					return true
				}
			}
			return false
		})
		writer, inPair := people[pair[0]]
		if _, listens := people[pair[1]]; !inPair && !listens {
			t.Fatalf("round %d paired %v: no person", r, pair)
		}
		if inPair {
			e.clock.Advance(phase / 2)
			if !e.isOpen(th, r, roundtable.PhaseMessage) {
				t.Fatalf("round %d: %s's step closed before they wrote", r, writer.Name)
			}
			e.form(writer, th, fmt.Sprintf("**Round %d of 2: message", r), "Write message", map[string]string{"text": "my view"})
		}
		e.waitFor("the round's message step to close", func() bool { return !e.isOpen(th, r, roundtable.PhaseMessage) })
		e.clock.Advance(phase) // the listener's report, if a person's, runs to its deadline
		e.waitFor("the round to end", func() bool { s := e.state(th); return s.Round > r || s.Status == roundtable.StatusEnded })
	}
}

// said waits for a post in thread by author whose text starts with prefix.
func (e *classEnv) said(thread, author, prefix string) bottest.Post {
	e.t.Helper()
	var found bottest.Post
	e.waitFor(author+"'s post "+prefix, func() bool {
		for _, p := range e.fake.Posts(thread) {
			if p.Author == author && strings.HasPrefix(p.Text, prefix) {
				found = p
				return true
			}
		}
		return false
	})
	return found
}

// form presses the button labelled label on the post in thread starting
// with prefix, as u, and submits the form it opens with fields.
func (e *classEnv) form(u bottest.User, thread, prefix, label string, fields map[string]string) {
	e.t.Helper()
	p := e.post(thread, prefix)
	i := slices.IndexFunc(p.Controls, func(c bottest.Control) bool { return c.Label == label })
	if i < 0 {
		e.t.Fatalf("the post %q has no %s", prefix, label)
	}
	n := len(e.fake.Private(u))
	if err := e.fake.Click(context.Background(), u, thread, p.ID, p.Controls[i].ID); err != nil {
		e.t.Fatal(err)
	}
	e.waitFor(u.Name+"'s form", func() bool {
		return slices.ContainsFunc(e.fake.Private(u)[n:], func(m bottest.Private) bool { return m.Form != nil })
	})
	if err := e.fake.Submit(context.Background(), u, fields); err != nil {
		e.t.Fatal(err)
	}
}
