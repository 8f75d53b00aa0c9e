package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
)

const (
	signalQuestion = "Taxes on the rich should rise."
	// signalComplement is the default complement of signalQuestion, which
	// a persona at -2 strongly agrees with.
	signalComplement = `You strongly agree with the statement "It is not the case that taxes on the rich should rise."`
	signalStatement  = `You strongly agree with the statement "Taxes on the rich should rise."`
)

// signalScript plays chatroom model agents that number their public
// messages, and the opinion presence and signal agents over them: the
// first message reads as strongly agreeing with the complement, the
// second as an opinion the signal agent cannot label (every answer is
// off its labels), every other message as no opinion at all.
type signalScript struct {
	mu   sync.Mutex
	said int
}

func (c *signalScript) handle(ctx context.Context, r *openaitest.Request) openaitest.Reply {
	text := r.LastUser()
	switch {
	case r.SchemaName == "message" && strings.Contains(text, "Write one private message"):
		return openaitest.JSON(map[string]any{"to": []string{}, "text": "Still of the same mind."})
	case r.SchemaName == "message":
		c.mu.Lock()
		defer c.mu.Unlock()
		c.said++
		return openaitest.JSON(map[string]any{"to": []string{}, "text": fmt.Sprintf("Message %d: about those taxes.", c.said)})
	case r.SchemaName == "survey":
		return openaitest.JSON(map[string]any{"reasoning": "as I said", "values": []float64{2}})
	case r.SchemaName == "opinion_presence":
		present := strings.Contains(text, "Message 1:") || strings.Contains(text, "Message 2:")
		return openaitest.JSON(map[string]string{"reasoning": "scripted", "label": map[bool]string{true: "yes", false: "no"}[present]})
	case r.SchemaName == "opinion_signal" && strings.Contains(text, "Message 1:"):
		return openaitest.JSON(map[string]string{"reasoning": "scripted", "label": "strongly agree (complement)"})
	case r.SchemaName == "opinion_signal":
		return openaitest.JSON(map[string]string{"reasoning": "scripted", "label": "somewhere in between"})
	}
	return openaitest.Responder{}.Handle(ctx, r)
}

// messageBy finds the message of s whose text starts with prefix.
func messageBy(t *testing.T, s *roundtable.State, prefix string) roundtable.Message {
	t.Helper()
	for _, r := range s.Rounds {
		for _, m := range r.Messages {
			if strings.HasPrefix(m.Text, prefix) {
				return m
			}
		}
	}
	t.Fatalf("no message starts with %q", prefix)
	return roundtable.Message{}
}

// Under the default persona update (the paper's, section 3.1), a model
// agent's message classified at another level rewrites its persona: its
// next prompts state the new level, and the log records the persona of
// every message, with the signal read in it, and of every survey answer. A signal that cannot be
// read keeps the persona, is recorded as missing, and the chat goes on.
// analyze reads the updates back from the log.
func TestChatroomPersonaFollowsOpinionSignal(t *testing.T) {
	script := &signalScript{}
	srv := openaitest.NewServer(script.handle)
	defer srv.Close()
	dir := t.TempDir()
	code, _, errOut := run(t, "", "sim", "--protocol", "chatroom", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
		"--stances", "echo:2", "--question", signalQuestion, "--agents", "3", "--rounds", "5", "--runs", "1", "--out", dir)
	if code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errOut)
	}
	states := simStates(t, dir)
	if len(states) != 1 {
		t.Fatalf("%d tables, want 1", len(states))
	}
	s := states[0]
	first, second := messageBy(t, s, "Message 1:"), messageBy(t, s, "Message 2:")
	if p := first.Persona; p == nil || p.Level != 2 || !strings.Contains(p.Text, signalStatement) || p.Signal == nil ||
		!p.Signal.Present || p.Signal.Level != -2 || p.Signal.Missing != "" || p.Signal.Classifier != "default" {
		t.Fatalf("message 1's persona record: %+v (signal %+v), want level 2, classified -2 by endpoint default", p, p.Signal)
	}
	if p := second.Persona; p == nil || p.Level != 2 || p.Signal == nil || p.Signal.Missing == "" || p.Updated() {
		t.Fatalf("message 2's persona record: %+v, want level 2 with the signal missing", p)
	}
	if ap := s.Config.Provenance.Agents[first.From]; ap.PersonaSignal != "default" || ap.PersonaSignalVersion != (stance.Classifier{}).Version() {
		t.Errorf("provenance of %s: %+v, want persona_signal default with the classifier prompts' version", first.From, ap)
	}
	name := map[string]string{}
	for _, p := range s.Participants {
		name[p.Name] = p.ID
	}
	// Each agent's prompts, in order: the author of message 1 states the
	// complement after it; the author of message 2 keeps the statement.
	after := map[string]bool{}
	changed := 0
	for _, r := range srv.Requests() {
		if r.SchemaName != "message" && r.SchemaName != "survey" {
			continue
		}
		id := name[r.User]
		if strings.Contains(r.LastUser(), "Message 1:") && id == first.From || strings.Contains(r.LastUser(), "Message 2:") && id == second.From {
			after[id] = true // its own classified message is in its history
		}
		want, other := signalStatement, signalComplement
		if after[id] && id == first.From {
			want, other = signalComplement, signalStatement
			changed++
		}
		if restated := r.LastUser()[:strings.Index(r.LastUser(), "## The chat so far")]; !strings.Contains(restated, want) || strings.Contains(restated, other) ||
			!strings.Contains(r.System(), want) || strings.Contains(r.System(), other) {
			t.Errorf("request %d by %s (after its classified message: %v): persona does not state %q:\n%s", r.N, r.User, after[id], want, restated)
		}
	}
	if changed == 0 {
		t.Fatal("the author of message 1 was never asked again")
	}
	for _, r := range s.Rounds {
		for _, m := range r.Messages {
			if m.From == first.From && m.Seq > first.Seq && (m.Persona == nil || m.Persona.Level != -2 || !strings.Contains(m.Persona.Text, signalComplement)) {
				t.Errorf("%s's message %q after its update was recorded with persona %+v, want level -2", m.From, m.Text, m.Persona)
			}
			if m.From == second.From && m.Seq > second.Seq && (m.Persona == nil || m.Persona.Level != 2) {
				t.Errorf("%s's message %q after a missing signal was recorded with persona %+v, want level 2 kept", m.From, m.Text, m.Persona)
			}
		}
	}
	reports := 0
	for _, r := range s.Rounds {
		for _, a := range r.Surveys {
			want := map[bool]float64{true: -2, false: 2}[a.By == first.From]
			if a.Persona == nil || a.Persona.Level != want || a.Persona.Signal != nil {
				t.Errorf("%s's survey answer was recorded with persona %+v, want level %g", a.By, a.Persona, want)
			}
			reports++
		}
	}
	if reports != 3 {
		t.Errorf("%d survey answers, want 3", reports)
	}
	rows := chatroomRows(t, dir)
	if len(rows) != 1 || rows[0]["persona_updates"] != "1.0000" || rows[0]["updated_agents"] != "1.0000" || rows[0]["signal_missing"] != "1.0000" {
		t.Errorf("analyze: %v, want 1 persona update by 1 agent and 1 missing signal", rows)
	}
}

// --persona-update lexicon reads the signal offline, asking the model
// nothing; --persona-update none keeps the assigned persona and records
// it unclassified.
func TestChatroomPersonaUpdateLexiconAndNone(t *testing.T) {
	srv := openaitest.NewServer(turncoats) // public messages without cues; private ones "I firmly reject the claim"
	defer srv.Close()
	for _, c := range []struct {
		update string
		signal bool
	}{{"lexicon", true}, {"none", false}} {
		dir := t.TempDir()
		before := srv.Count(nil)
		code, _, errOut := run(t, "", "sim", "--protocol", "chatroom", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
			"--stances", "echo:2", "--question", signalQuestion, "--agents", "3", "--rounds", "2", "--runs", "1", "--out", dir, "--persona-update", c.update)
		if code != 0 {
			t.Fatalf("%s: sim: exit %d: %s", c.update, code, errOut)
		}
		if n := srv.Count(func(r *openaitest.Request) bool { return r.N > before && strings.HasPrefix(r.SchemaName, "opinion_") }); n != 0 {
			t.Errorf("%s: %d classifier requests, want none", c.update, n)
		}
		s := simStates(t, dir)[0]
		private := 0
		for _, r := range s.Rounds {
			for _, m := range r.Messages {
				p := m.Persona
				switch {
				case p == nil || p.Level != 2:
					t.Errorf("%s: message %q recorded with persona %+v, want level 2", c.update, m.Text, p)
				case (p.Signal != nil) != c.signal:
					t.Errorf("%s: message %q signal %+v", c.update, m.Text, p.Signal)
				case c.signal && m.Private && (p.Signal.Classifier != "keyword-lexicon (offline)" || !p.Signal.Present || p.Signal.Level != -2):
					t.Errorf("%s: private message %q read as %+v, want -2 by the lexicon", c.update, m.Text, p.Signal)
				}
				if m.Private {
					private++
				}
			}
		}
		if private != 2 {
			t.Errorf("%s: %d private messages, want 2", c.update, private)
		}
		for id, ap := range s.Config.Provenance.Agents {
			if want := map[bool]string{true: "keyword-lexicon (offline)"}[c.signal]; ap.PersonaSignal != want {
				t.Errorf("%s: provenance of %s: persona_signal %q, want %q", c.update, id, ap.PersonaSignal, want)
			}
		}
	}
}
