package bottest

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/mediation"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// MediationPreset is the suite's mediation: three people and a mediator
// of two seats that asks the fake OpenAI server, one critique round.
const MediationPreset = "mediation"

// mediatorSeats are the preset's mediator seats.
func mediatorSeats() []roundtable.Participant {
	return mediation.MediatorSeats(2, mediation.KindStitch+":llm")
}

// Mediation is the suite's mediation preset (MediationPreset).
func Mediation() bot.Preset {
	q := "What should we do about the old centre's traffic?"
	cfg := roundtable.Config{Title: "Traffic mediation", Task: roundtable.TaskSpec{Kind: "text", Topic: q}, Rule: vote.Schulze, Tie: vote.TieRandom, Rounds: 2,
		Mode: roundtable.Sealed, Durations: roundtable.Durations{Message: phaseTime, Proposal: phaseTime, Vote: phaseTime},
		Protocol: mediation.Preset(protocol.Settings{Question: q, Drafts: 2})}
	var names []string
	for _, m := range mediatorSeats() {
		names = append(names, m.Name)
	}
	return bot.Preset{Name: MediationPreset, Config: cfg, Agents: names}
}

// mediator is the env's language-model mediator: the real OpenAI client
// against a fake server, started on first use, whose statements name the
// seat and the step so that every candidate differs.
func (e *env) mediator() roundtable.Agent {
	e.medOnce.Do(func() {
		srv := openaitest.NewServer(func(ctx context.Context, r *openaitest.Request) openaitest.Reply {
			step := "draft"
			if strings.Contains(r.LastUser(), "Write revision") {
				step = "revision"
			}
			return openaitest.JSON(map[string]string{"statement": fmt.Sprintf("We agree on calmer streets (%s by %s).", step, r.User)})
		})
		e.t.Cleanup(srv.Close)
		e.med = &mediation.Mediator{LLM: openai.New(openai.Config{Name: "fake", BaseURL: srv.URL(), Model: "fake", MaxRetries: -1})}
	})
	return e.med
}

// shownIDs are the candidate IDs, in order, of a "Read the candidates"
// reply.
var shownIDs = regexp.MustCompile(`(?m)^\*\*([A-Z]+)\*\*`)

// readCandidates presses Read the candidates as u and returns the IDs in
// the order u was shown them.
func (e *env) readCandidates(u User, prefix string) []string {
	e.t.Helper()
	n := len(e.h.Private(u))
	e.click(u, prefix, "Read the candidates")
	var ids []string
	e.waitFor(u.Name+"'s candidates", func() bool {
		for _, p := range e.h.Private(u)[n:] {
			if strings.Contains(p.Text, "in the order drawn for you") {
				for _, m := range shownIDs.FindAllStringSubmatch(p.Text, -1) {
					ids = append(ids, m[1])
				}
				return true
			}
		}
		return false
	})
	return ids
}

// testMediation: three people and the mediator reach a group statement
// through one critique round; Carol never ranks and the table goes on,
// saying she was left out. Each person reads the candidates in the order
// recorded for them, and a ballot ranking what its voter read first
// counts for that statement.
func testMediation(t *testing.T, e *env) {
	e.startQuiet(map[string]string{"preset": MediationPreset}, "**Traffic mediation")
	for _, u := range []User{Bob, Carol} {
		e.click(u, "**Traffic mediation", "Join")
		e.private(u, "You joined")
	}
	e.begin()
	people := []User{Alice, Bob, Carol}
	msgs := 0
	for r := 1; r <= 2; r++ {
		priv := fmt.Sprintf("**Round %d of 2: private phase", r)
		if r == 2 {
			e.mustContain("critique step", e.post(priv).Text, "Write your critique")
		}
		for _, u := range people {
			e.form(u, priv, "Write private message", fmt.Sprintf("Round %d message", r), map[string]string{"text": fmt.Sprintf("%s's view, round %d.", u.Name, r)})
			msgs++
		}
		e.waitEvents("message_posted", msgs)
		prefix := fmt.Sprintf("**Round %d of 2: vote", r)
		if strings.Contains(e.post(prefix).Text, "view, round") {
			t.Errorf("round %d: a person's private text reached the thread", r)
		}
		shown := map[string][]string{}
		for _, u := range people[:2] {
			shown[u.Name] = e.readCandidates(u, prefix)
			fields := map[string]string{}
			for i, id := range shown[u.Name] {
				fields[fmt.Sprintf("rank%d", i+1)] = id
			}
			e.form(u, prefix, "Fill in your ballot", "ballot", fields)
			e.private(u, "is recorded")
		}
		e.clock.Advance(phaseTime) // Carol never ranks: the deadline closes the vote
		res := e.post(fmt.Sprintf("**Round %d result**", r)).Text
		e.mustContain("left out", res, "Left out of this ranking (no ballot when it closed): Carol")
		e.checkOrders(r, shown)
	}
	surv := "**Round 2 of 2: survey phase"
	e.mustContain("endorsement", e.post(surv).Text, "1 to 7")
	for _, u := range people {
		e.form(u, surv, "Answer", "Round 2 survey", map[string]string{"v0": "6"})
	}
	end := e.post("**The table has ended").Text
	e.mustContain("statement", end, "The group's statement: “We agree on calmer streets")
	s, err := roundtable.Replay(e.events())
	if err != nil {
		t.Fatal(err)
	}
	if a := mediation.Agree(s); a.Rounds != 2 || a.LeftOut != 2 || len(a.Endorsements) != 3 || a.Statement == "" {
		t.Errorf("agreement %+v, want 2 rounds, Carol left out of both rankings, 3 endorsements and a statement", a)
	}
}

// checkOrders checks that what each person read is the order the log
// records for them, and that their ballot put first what they read first.
func (e *env) checkOrders(round int, shown map[string][]string) {
	e.t.Helper()
	s, err := roundtable.Replay(e.events())
	if err != nil {
		e.t.Fatal(err)
	}
	r := s.Rounds[round-1]
	for _, p := range s.Participants {
		ids, ok := shown[p.Name]
		if !ok {
			continue
		}
		if !slices.Equal(ids, r.Orders[p.ID]) {
			e.t.Errorf("round %d: %s read %v, the log records %v", round, p.Name, ids, r.Orders[p.ID])
		}
		i := slices.IndexFunc(r.Tally.Ballots, func(b vote.Ballot) bool { return b.Voter == p.ID })
		if i < 0 || len(ids) == 0 || r.Tally.Ballots[i].Ranking[0] != ids[0] {
			e.t.Errorf("round %d: %s's ballot does not rank first what they read first (%v)", round, p.Name, ids)
		}
	}
}
