package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
)

// chatScript plays chatroom model agents that number their messages, so a
// prompt's history can be matched against what was said, in order.
type chatScript struct {
	mu   sync.Mutex
	said []string // the public messages, in the order posted
}

func (c *chatScript) handle(ctx context.Context, r *openaitest.Request) openaitest.Reply {
	switch {
	case r.SchemaName == "message" && strings.Contains(r.LastUser(), "Write one private message"):
		return openaitest.JSON(map[string]any{"to": []string{}, "text": "Still of the same mind."})
	case r.SchemaName == "message":
		c.mu.Lock()
		defer c.mu.Unlock()
		text := fmt.Sprintf("Message %d: keep the cars where they are, I say.", len(c.said)+1)
		c.said = append(c.said, text)
		return openaitest.JSON(map[string]any{"to": []string{}, "text": text})
	case r.SchemaName == "survey":
		return openaitest.JSON(map[string]any{"reasoning": "as before", "values": []float64{-2}})
	}
	return openaitest.Responder{}.Handle(ctx, r)
}

// Every chatroom prompt restates the persona (name and setting, the
// opinion as agreement with the complement, its elaboration, an example)
// right before the recent history, and the history is the newest
// messages that fit the configured budget, the oldest dropped first.
func TestChatroomPromptRestatesPersonaBeforeTrimmedHistory(t *testing.T) {
	script := &chatScript{}
	srv := openaitest.NewServer(script.handle)
	defer srv.Close()
	const budget = 300
	complement := "Cities should keep cars in their centres."
	dir := t.TempDir()
	code, _, errOut := run(t, "", "sim", "--protocol", "chatroom", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
		"--stances", "echo:-2", "--question", "Cities should ban cars from their centres.", "--complement", complement, "--persona-update", "none",
		"--context-chars", fmt.Sprint(budget), "--agents", "3", "--rounds", "10", "--runs", "1", "--out", dir)
	if code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errOut)
	}
	checkJudgeAsksAbout(t, dir, complement)
	if len(script.said) != 10 {
		t.Fatalf("%d chat messages, want 10", len(script.said))
	}
	asked, dropped := 0, 0
	for _, r := range srv.Requests() {
		if r.SchemaName != "message" && r.SchemaName != "survey" {
			continue
		}
		asked++
		user := r.LastUser()
		persona := strings.Index(user, "## Who you are (restated)")
		chat := strings.Index(user, "## The chat so far")
		if persona != 0 || chat < persona {
			t.Fatalf("request %d: the persona does not come first, right before the history:\n%s", r.N, user)
		}
		for _, want := range []string{"Your name is Agent ", "online chat about", fmt.Sprintf("You strongly agree with the statement %q", complement),
			"You are convinced of it", "Example of what you might say: "} {
			if !strings.Contains(user[:chat], want) {
				t.Errorf("request %d: the restated persona lacks %q:\n%s", r.N, want, user[:chat])
			}
		}
		dropped = max(dropped, checkTrimmedHistory(t, r.N, user[chat:], script.said, budget))
	}
	if dropped == 0 {
		t.Error("no prompt dropped an old message: the budget was never reached")
	}
	if asked < 10+2+3 {
		t.Errorf("%d chatroom requests, want at least 15 (10 messages, 2 private, 3 reports)", asked)
	}
}

// checkTrimmedHistory checks that a prompt's chat is the newest messages
// said before it that fit in budget characters, oldest first, with the
// next older one left out because it would not fit. It returns how many
// older messages were dropped.
func checkTrimmedHistory(t *testing.T, n int, chat string, said []string, budget int) int {
	t.Helper()
	var kept []string
	used := 0
	for _, l := range strings.Split(chat, "\n") {
		who, text, ok := strings.Cut(l, ": ")
		if !ok || !strings.HasPrefix(l, "- ") {
			continue
		}
		used += utf8.RuneCountInString(l) + 1
		if !strings.HasSuffix(who, ", privately") { // one's own private message, after the chat
			kept = append(kept, text)
		}
	}
	if used > budget {
		t.Errorf("request %d: %d characters of history, over the budget of %d", n, used, budget)
	}
	if len(kept) == 0 {
		return 0
	}
	first := slices.Index(said, kept[0])
	if first < 0 {
		t.Fatalf("request %d: %q was never said", n, kept[0])
	}
	for i, text := range kept {
		if first+i >= len(said) || said[first+i] != text {
			t.Fatalf("request %d: history %q is not the said messages in order from %d", n, kept, first)
		}
	}
	if first > 0 && !strings.Contains(chat, fmt.Sprintf("(%d earlier messages no longer fit", first)) {
		t.Errorf("request %d: %d older messages dropped without saying so:\n%s", n, first, chat)
	}
	if first > 0 && used+len("- Agent 1 (you): ")+utf8.RuneCountInString(said[first-1])+1 <= budget {
		t.Errorf("request %d: message %d was dropped though it fits:\n%s", n, first, chat)
	}
	return first
}

// checkJudgeAsksAbout runs analyze's model stance classifier over the run
// in dir and checks that every question names the personas' complement.
func checkJudgeAsksAbout(t *testing.T, dir, complement string) {
	t.Helper()
	judge := openaitest.NewServer(func(_ context.Context, q *openaitest.Request) openaitest.Reply {
		return openaitest.JSON(map[string]string{"reasoning": "scripted", "label": "yes"})
	})
	defer judge.Close()
	chatroomRows(t, dir, "--stance", "llm", "--samples", "1", "--llm-base-url", judge.URL(), "--llm-model", "judge")
	reqs := judge.Requests()
	if len(reqs) == 0 {
		t.Fatal("analyze asked the judge nothing")
	}
	for _, r := range reqs {
		if !strings.Contains(r.LastUser()+r.System(), "Complement: "+complement) {
			t.Fatalf("the stance classifier was not given the complement:\n%s\n%s", r.System(), r.LastUser())
		}
	}
}

// A [[table]] refuses the chatroom settings that belong to its agents'
// [[agent]] presets, naming the key; an [[agent]] refuses a negative
// context_chars.
func TestChatroomSettingsOfAgentsAreRefusedOnATable(t *testing.T) {
	app := &App{}
	for _, c := range []struct{ body, want string }{
		{"[[table]]\nname = \"c\"\nprotocol = \"chatroom\"\nquestion = \"q\"\ncontext_chars = 500\n", "table[0].context_chars: a live table's agents keep the memory of their [[agent]] preset"},
		{"[[table]]\nname = \"c\"\nprotocol = \"chatroom\"\nquestion = \"q\"\ncomplement = \"not q\"\n", "table[0].complement: a live table's agents take their persona"},
		{"[[table]]\nname = \"d\"\nprotocol = \"dyads\"\nquestion = \"q\"\ncomplement = \"not q\"\n", "table[0].complement: a setting of the chatroom protocol"},
	} {
		path := writeConfig(t, c.body)
		cfg, err := LoadConfig(path)
		if err == nil {
			m, merr := app.newMinds(cfg, llmFlags{}, mindOptions{})
			if merr != nil {
				t.Fatal(merr)
			}
			_, err = app.botConfig(cfg, m)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.body, err, c.want)
		}
	}
	if _, err := LoadConfig(writeConfig(t, "[[agent]]\nname = \"Ada\"\ncontext_chars = -1\n")); err == nil || !strings.Contains(err.Error(), "agent[0].context_chars: -1 is negative") {
		t.Errorf("negative context_chars: %v", err)
	}
}
