package discordtest

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// addMessage records a message and sends its MESSAGE_CREATE; the caller
// holds mu.
func (s *Server) addMessage(ch, authorID, author, webhookID, text string, rows []component) *message {
	return s.record(&message{Channel: ch, AuthorID: authorID, Author: author, Webhook: webhookID, Text: text}, rows)
}

// record adds m, with its ID and time set, to its channel and sends its
// MESSAGE_CREATE; the caller holds mu.
func (s *Server) record(m *message, rows []component) *message {
	m.ID, m.createdAt = s.newID(), time.Now()
	m.setRows(rows)
	ch, authorID := m.Channel, m.AuthorID
	s.messages[ch] = append(s.messages[ch], m)
	payload := s.messageJSON(m)
	if sess := s.sessions[s.shardOf(s.guildOfLocked(ch))]; sess != nil && !sess.content && authorID != BotID {
		payload["content"] = "" // what Discord sends without the message content intent
	}
	s.dispatchLocked("MESSAGE_CREATE", payload)
	return m
}

// setRows replaces a message's rows, remembering every control shown.
func (m *message) setRows(rows []component) {
	m.Rows = rows
	if m.seen == nil {
		m.seen = map[string]component{}
	}
	for _, r := range rows {
		for _, c := range r.Components {
			m.seen[c.CustomID] = c
		}
	}
}

// findMessage returns a message of a channel; the caller holds mu.
func (s *Server) findMessage(ch, id string) *message {
	for _, m := range s.messages[ch] {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// messageJSON renders m as Discord's Message object.
func (s *Server) messageJSON(m *message) map[string]any {
	out := map[string]any{"id": m.ID, "channel_id": m.Channel, "guild_id": s.guildIDOf(m.Channel), "content": m.Text,
		"timestamp": timestamp(m.createdAt), "edited_timestamp": nil, "tts": false, "mention_everyone": false,
		"mentions": []any{}, "mention_roles": []any{}, "attachments": attachmentsJSON(m.ID, m.files), "embeds": []any{},
		"components": rowsJSON(m.Rows), "pinned": false, "type": 0, "flags": 0}
	if !m.edit.IsZero() {
		out["edited_timestamp"] = timestamp(m.edit)
	}
	if m.system {
		out["type"] = 18 // THREAD_CREATED
	}
	switch {
	case m.Webhook != "":
		out["webhook_id"] = m.Webhook
		out["author"] = map[string]any{"id": m.Webhook, "username": m.Author, "discriminator": "0000", "bot": true}
	case m.AuthorID == BotID:
		out["author"] = botUser()
	default:
		author := userJSON(bottest.User{ID: m.AuthorID, Name: m.Author})
		author["bot"] = m.botAuthor
		out["author"] = author
		out["member"] = map[string]any{"roles": []string{}, "joined_at": timestamp(m.createdAt), "deaf": false, "mute": false, "flags": 0}
	}
	return out
}

func rowsJSON(rows []component) []component {
	if rows == nil {
		return []component{}
	}
	return rows
}

func attachmentsJSON(msg string, files []File) []map[string]any {
	out := []map[string]any{}
	for i, f := range files {
		out = append(out, map[string]any{"id": msg + strconv.Itoa(i), "filename": f.Name,
			"size": len(f.Data), "url": "https://cdn.example/" + f.Name, "proxy_url": "https://cdn.example/" + f.Name})
	}
	return out
}

func botUser() map[string]any {
	return map[string]any{"id": BotID, "username": BotName, "discriminator": "0000", "bot": true}
}

func userJSON(u bottest.User) map[string]any {
	return map[string]any{"id": u.ID, "username": strings.ToLower(u.Name), "global_name": u.Name, "discriminator": "0"}
}

func channelJSON(c *channel) map[string]any {
	out := map[string]any{"id": c.ID, "type": c.Type, "guild_id": c.guildID(), "name": c.Name,
		"permission_overwrites": overwritesJSON(c.Overwrites)}
	if c.Parent != "" {
		out["parent_id"] = c.Parent
		out["owner_id"] = BotID
		out["thread_metadata"] = map[string]any{"archived": c.Archived, "auto_archive_duration": 1440, "locked": false,
			"archive_timestamp": timestamp(time.Now())}
	}
	return out
}

// guildIDOf is the guild of a channel by ID; the caller holds mu.
func (s *Server) guildIDOf(id string) string {
	if ch := s.channels[id]; ch != nil {
		return ch.guildID()
	}
	return GuildID
}

func webhookJSON(w *webhook) map[string]any {
	return map[string]any{"id": w.ID, "type": 1, "guild_id": GuildID, "channel_id": w.Channel, "name": w.Name,
		"token": w.Token, "application_id": AppID, "user": botUser()}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only the fake's own values are marshalled
	}
	return b
}

// Message is a posted message as the fake holds it.
type Message struct {
	ID      string
	Author  string // "bot", a webhook's persona name, or a person's name
	Webhook string // the webhook that posted it, if any
	Text    string
	Rows    [][]bottest.Control // action rows
	Files   []File
}

// Messages returns channel's messages in order, edits applied, system
// messages (thread created) left out.
func (s *Server) Messages(channel string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, m := range s.messages[channel] {
		if m.system {
			continue
		}
		msg := Message{ID: m.ID, Author: m.Author, Webhook: m.Webhook, Text: m.Text, Files: m.files}
		for _, r := range m.Rows {
			var row []bottest.Control
			for _, c := range r.Components {
				row = append(row, control(c))
			}
			msg.Rows = append(msg.Rows, row)
		}
		out = append(out, msg)
	}
	return out
}

func control(c component) bottest.Control {
	out := bottest.Control{ID: c.CustomID, Label: c.Label, Select: c.Type == selectType}
	if out.Select {
		out.Label = c.Placeholder
	}
	for _, o := range c.Options {
		out.Options = append(out.Options, o.Value)
	}
	return out
}

// Posts implements bottest.Harness: texts as posted, every character
// kept (the bot adds none people do not see).
func (s *Server) Posts(channel string) []bottest.Post {
	var out []bottest.Post
	for _, m := range s.Messages(channel) {
		p := bottest.Post{ID: m.ID, Author: m.Author, Text: m.Text}
		for _, r := range m.Rows {
			p.Controls = append(p.Controls, r...)
		}
		out = append(out, p)
	}
	return out
}

// Private implements bottest.Harness: u's ephemeral answers and forms.
func (s *Server) Private(u bottest.User) []bottest.Private {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]bottest.Private(nil), s.private[u.ID]...)
}

// Files returns the files u was sent privately.
func (s *Server) Files(u bottest.User) []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]File(nil), s.files[u.ID]...)
}

// Threads implements bottest.Harness.
func (s *Server) Threads(channel string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch := s.channels[channel]; ch != nil {
		return append([]string(nil), ch.threads...)
	}
	return nil
}

// Channel implements bottest.Harness: #general.
func (s *Server) Channel() string { return ChannelID }

// Webhooks returns the names of channel's webhooks.
func (s *Server) Webhooks(channel string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, w := range s.webhooks {
		if w.Channel == channel {
			out = append(out, w.Name)
		}
	}
	return out
}
