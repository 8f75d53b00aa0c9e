package slackfake

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// Harness is the bottest.Harness over a fake Slack: people act through
// Socket Mode envelopes and see what Slack would show them.
//
// Channel IDs follow the adapter's encoding: a thread is
// "<channel>/<thread_ts>". Messages' IDs are their ts. Texts are shown in
// the bot's markdown again (mrkdwn *bold* back to **bold**, escapes
// undone) so the suite's expectations hold for every platform.
type Harness struct {
	Fake *Server
	// Settle, when set, runs after every delivered act and waits until
	// the adapter has handled it, which the Harness contract asks for.
	// Slack gives no such signal, so the adapter's test supplies it.
	Settle func(ctx context.Context) error

	newPlatform func() bot.Platform

	mu       sync.Mutex
	platform bot.Platform
}

var _ bottest.Harness = (*Harness)(nil)

// NewHarness returns a harness over s; newPlatform makes the adapter
// under test, connected to s, at the start and after every Restart.
func NewHarness(s *Server, newPlatform func() bot.Platform) *Harness {
	return &Harness{Fake: s, newPlatform: newPlatform, platform: newPlatform()}
}

// Platform implements bottest.Harness.
func (h *Harness) Platform() bot.Platform {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.platform
}

// Restart implements bottest.Harness: a new adapter, the same Slack.
func (h *Harness) Restart() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.platform = h.newPlatform()
}

// Channel implements bottest.Harness.
func (h *Harness) Channel() string { return GeneralID }

// SlackUser is how a suite user appears in the fake workspace.
func SlackUser(u bottest.User) User {
	return User{ID: "U" + u.ID, Name: u.Name, Admin: u.Manager}
}

// Command implements bottest.Harness. Slack runs slash commands only
// outside threads: a command "in" a thread is typed in its channel.
func (h *Harness) Command(ctx context.Context, u bottest.User, channel, name string, opts map[string]string) error {
	_, err := h.Fake.Command(SlackUser(u), splitThread(channel).Channel, CommandText(name, opts))
	return h.settle(ctx, err)
}

// settle waits for the adapter after an act that was delivered.
func (h *Harness) settle(ctx context.Context, err error) error {
	if err != nil || h.Settle == nil {
		return err
	}
	return h.Settle(ctx)
}

// CommandText writes a subcommand and options as a person would type
// them: name key:"value" ..., in key order.
func CommandText(name string, opts map[string]string) string {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := []string{name}
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s:\"%s\"", k, strings.ReplaceAll(opts[k], `"`, `\"`)))
	}
	return strings.Join(parts, " ")
}

// Say implements bottest.Harness.
func (h *Harness) Say(ctx context.Context, u bottest.User, channel, text string) error {
	where := splitThread(channel)
	return h.settle(ctx, h.Fake.Say(SlackUser(u), where.Channel, where.TS, text))
}

// Click implements bottest.Harness.
func (h *Harness) Click(ctx context.Context, u bottest.User, channel, messageID, controlID string, values ...string) error {
	return h.settle(ctx, h.Fake.Click(SlackUser(u), splitThread(channel).Channel, messageID, controlID, values...))
}

// Submit implements bottest.Harness.
func (h *Harness) Submit(ctx context.Context, u bottest.User, fields map[string]string) error {
	return h.settle(ctx, h.Fake.Submit(SlackUser(u), fields))
}

// Posts implements bottest.Harness: a channel's top-level messages, or a
// thread's replies.
func (h *Harness) Posts(channel string) []bottest.Post {
	var out []bottest.Post
	for _, m := range h.Fake.Messages(channel) {
		out = append(out, h.postOf(m))
	}
	return out
}

func (h *Harness) postOf(m Message) bottest.Post {
	p := bottest.Post{ID: m.TS, Author: "bot", Text: BotMarkdown(shownText(m.Text, m.Blocks))}
	switch {
	case m.Username != "":
		p.Author = m.Username
	case m.BotID == "":
		p.Author = h.userName(m.User)
	}
	for _, b := range m.Blocks {
		for _, e := range b.Elements {
			p.Controls = append(p.Controls, controlOf(e))
		}
	}
	return p
}

func controlOf(e Element) bottest.Control {
	c := bottest.Control{ID: e.ActionID, Select: strings.Contains(e.Type, "select")}
	switch {
	case e.Text != nil:
		c.Label = e.Text.Text
	case e.Placeholder != nil:
		c.Label = e.Placeholder.Text
	}
	for _, o := range e.Options {
		c.Options = append(c.Options, o.Value)
	}
	return c
}

// shownText is what a message shows: its sections, or its text without
// blocks.
func shownText(text string, blocks []Block) string {
	var secs []string
	for _, b := range blocks {
		if b.Type == "section" && b.Text != nil {
			secs = append(secs, b.Text.Text)
		}
	}
	if len(secs) == 0 {
		return text
	}
	return strings.Join(secs, "\n")
}

// BotMarkdown turns mrkdwn back into the bot's markdown: *bold* to
// **bold**, bullets to "- ", escapes undone.
func BotMarkdown(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if rest, ok := strings.CutPrefix(l, "• "); ok {
			l = "- " + rest
		}
		lines[i] = strings.ReplaceAll(l, "*", "**")
	}
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(strings.Join(lines, "\n"))
}

// Private implements bottest.Harness: ephemeral messages, opened modals,
// the errors a refused submission shows in its modal, and the files the
// user received in their direct message ("file NAME (N bytes): NOTE", then
// the content).
func (h *Harness) Private(u bottest.User) []bottest.Private {
	h.Fake.mu.Lock()
	defer h.Fake.mu.Unlock()
	var out []bottest.Private
	for _, p := range h.Fake.private[SlackUser(u).ID] {
		switch {
		case p.Ephemeral != nil:
			out = append(out, bottest.Private{Text: BotMarkdown(shownText(p.Ephemeral.Text, p.Ephemeral.Blocks))})
			continue
		case p.Refusal != nil: // the errors the open view shows
			out = append(out, bottest.Private{Text: p.Refusal.text()})
			continue
		case p.File != nil:
			out = append(out, bottest.Private{Text: p.File.text()})
			continue
		}
		f := &bottest.Form{ID: p.View.CallbackID, Title: p.View.Title}
		for _, b := range p.View.Blocks {
			if b.Type == "input" {
				f.Fields = append(f.Fields, b.BlockID)
			}
		}
		out = append(out, bottest.Private{Form: f})
	}
	return out
}

// Threads implements bottest.Harness: the app's top-level messages in the
// channel, each the root of a table's thread.
func (h *Harness) Threads(channel string) []string {
	h.Fake.mu.Lock()
	defer h.Fake.mu.Unlock()
	var out []string
	for _, m := range h.Fake.messages[channel] {
		if m.ThreadTS == "" && m.BotID == BotID && !m.Deleted {
			out = append(out, channel+"/"+m.TS)
		}
	}
	return out
}

// Updates implements bottest.Harness.
func (h *Harness) Updates() <-chan struct{} { return h.Fake.Updates() }

func (h *Harness) userName(id string) string {
	h.Fake.mu.Lock()
	defer h.Fake.mu.Unlock()
	return h.Fake.users[id].Name
}

// place is a channel or a thread in the adapter's encoding.
type place struct{ Channel, TS string }

func splitThread(s string) place {
	c, ts, _ := strings.Cut(s, "/")
	return place{Channel: c, TS: ts}
}

// Messages returns what a channel ("C1") or thread ("C1/<ts>") shows, in
// order: a channel's top-level messages or a thread's replies. Deleted
// messages are left out.
func (s *Server) Messages(channel string) []Message {
	where := splitThread(channel)
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, m := range s.messages[where.Channel] {
		if !m.Deleted && m.ThreadTS == where.TS {
			out = append(out, *m)
		}
	}
	return out
}

// Ephemerals returns the ephemeral messages u was shown.
func (s *Server) Ephemerals(user string) []Ephemeral {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Ephemeral
	for _, p := range s.private[user] {
		if p.Ephemeral != nil {
			out = append(out, *p.Ephemeral)
		}
	}
	return out
}

// Views returns the modals opened for u.
func (s *Server) Views(user string) []View {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []View
	for _, p := range s.private[user] {
		if p.View != nil {
			out = append(out, *p.View)
		}
	}
	return out
}

var _ bottest.FileReceiver = (*Harness)(nil)

// ReceivedFiles implements bottest.FileReceiver: the files shared in u's
// direct messages.
func (h *Harness) ReceivedFiles(u bottest.User) []bottest.File {
	h.Fake.mu.Lock()
	defer h.Fake.mu.Unlock()
	var out []bottest.File
	for _, p := range h.Fake.private[SlackUser(u).ID] {
		if p.File != nil {
			out = append(out, bottest.File{Name: p.File.Name, Data: p.File.Data})
		}
	}
	return out
}

// Remove deletes a message, as a person allowed to may.
func (s *Server) Remove(channel, ts string) {
	s.mu.Lock()
	if m := s.find(channel, ts); m != nil {
		m.Deleted = true
	}
	s.mu.Unlock()
	s.notify()
}
