package discordtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// commandName is the slash command the harness runs.
const commandName = "roundtable"

// errNotConnected is returned while no bot holds a gateway session.
var errNotConnected = errors.New("discordtest: the bot is not connected")

// Command implements bottest.Harness: u runs /roundtable name in
// channel, with options checked against the registered command (choices,
// types, required options) as Discord's client does.
func (s *Server) Command(ctx context.Context, u bottest.User, channel, name string, opts map[string]string) error {
	return s.interact(ctx, func() (*interaction, error) { return s.command(u, channel, name, opts) })
}

func (s *Server) command(u bottest.User, channel, name string, opts map[string]string) (*interaction, error) {
	i := slices.IndexFunc(s.commands, func(c commandDef) bool { return c.Name == commandName })
	if i < 0 {
		return nil, fmt.Errorf("discordtest: /%s is not registered", commandName)
	}
	cmd := s.commands[i]
	j := slices.IndexFunc(cmd.Options, func(o commandDef) bool { return o.Name == name && o.Type == optSubcommand })
	if j < 0 {
		return nil, fmt.Errorf("discordtest: /%s has no subcommand %q", commandName, name)
	}
	options, err := commandOptions(cmd.Options[j], opts)
	if err != nil {
		return nil, err
	}
	data := map[string]any{"id": cmd.ID, "name": cmd.Name, "type": 1, "guild_id": s.guildIDOf(channel),
		"options": []any{map[string]any{"name": name, "type": optSubcommand, "options": options}}}
	return s.sendInteraction(u, channel, 2, data, nil)
}

// commandOptions renders opts as a subcommand's options, typed as
// registered.
func commandOptions(sub commandDef, opts map[string]string) ([]map[string]any, error) {
	out := []map[string]any{}
	for name := range opts {
		if !slices.ContainsFunc(sub.Options, func(o commandDef) bool { return o.Name == name }) {
			return nil, fmt.Errorf("discordtest: /%s %s has no option %q", commandName, sub.Name, name)
		}
	}
	for _, def := range sub.Options {
		v, ok := opts[def.Name]
		if !ok {
			if def.Required {
				return nil, fmt.Errorf("discordtest: option %s is required", def.Name)
			}
			continue
		}
		val, err := optionValue(def, v)
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"name": def.Name, "type": def.Type, "value": val})
	}
	return out, nil
}

func optionValue(def commandDef, v string) (any, error) {
	if def.Type == optInteger {
		n, err := strconv.Atoi(v)
		if err != nil || (def.MinValue != nil && float64(n) < *def.MinValue) || (def.MaxValue != 0 && float64(n) > def.MaxValue) {
			return nil, fmt.Errorf("discordtest: option %s: %q is not an allowed integer", def.Name, v)
		}
		return n, nil
	}
	if len(def.Choices) > 0 && !slices.ContainsFunc(def.Choices, func(c choice) bool { return c.Value == v }) {
		return nil, fmt.Errorf("discordtest: option %s: %q is not one of its choices", def.Name, v)
	}
	if def.MaxLength > 0 && utf8.RuneCountInString(v) > def.MaxLength {
		return nil, fmt.Errorf("discordtest: option %s: longer than %d", def.Name, def.MaxLength)
	}
	return v, nil
}

// Say implements bottest.Harness: u posts text in channel.
func (s *Server) Say(_ context.Context, u bottest.User, channel, text string) error {
	return s.post(channel, u.ID, u.Name, false, text)
}

// SayEscaped posts, as u, a message whose content is given as the inside
// of a JSON string, escapes and all (`caf\ud800`): what a client that
// writes its own JSON may send, which the gateway relays as written.
func (s *Server) SayEscaped(u bottest.User, channel, escaped string) error {
	var text string
	if err := json.Unmarshal([]byte(`"`+escaped+`"`), &text); err != nil {
		return fmt.Errorf("discordtest: %q is not the inside of a JSON string: %w", escaped, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.canSay(channel); err != nil {
		return err
	}
	m := &message{Channel: channel, AuthorID: u.ID, Author: u.Name, Text: text}
	m.ID, m.createdAt = s.newID(), time.Now()
	s.messages[channel] = append(s.messages[channel], m)
	const hole = "\x00content"
	payload := s.messageJSON(m)
	payload["content"] = hole
	raw := bytes.Replace(mustJSON(payload), mustJSON(hole), []byte(`"`+escaped+`"`), 1)
	s.dispatchLocked("MESSAGE_CREATE", json.RawMessage(raw))
	return nil
}

// SayBot posts text in channel as another bot (not this one) named name.
func (s *Server) SayBot(_ context.Context, channel, name, text string) error {
	return s.post(channel, "", name, true, text)
}

func (s *Server) post(channel, id, name string, isBot bool, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.canSay(channel); err != nil {
		return err
	}
	if id == "" {
		id = s.newID()
	}
	s.record(&message{Channel: channel, AuthorID: id, Author: name, Text: text, botAuthor: isBot}, nil)
	return nil
}

// canSay checks that someone can post in channel now: the bot is
// connected, to see it, and the channel exists; the caller holds mu.
func (s *Server) canSay(channel string) error {
	if s.sessions[s.shardOf(s.guildOfLocked(channel))] == nil {
		return errNotConnected
	}
	if s.channels[channel] == nil {
		return fmt.Errorf("discordtest: no channel %s", channel)
	}
	return nil
}

// Click implements bottest.Harness. A control an edit removed can still
// be clicked: the user's screen may not have caught up.
func (s *Server) Click(ctx context.Context, u bottest.User, channel, messageID, controlID string, values ...string) error {
	return s.interact(ctx, func() (*interaction, error) { return s.click(u, channel, messageID, controlID, values) })
}

func (s *Server) click(u bottest.User, channel, messageID, controlID string, values []string) (*interaction, error) {
	m := s.findMessage(channel, messageID)
	if m == nil {
		return nil, fmt.Errorf("discordtest: no message %s in %s", messageID, channel)
	}
	c, ok := m.seen[controlID]
	if !ok {
		return nil, fmt.Errorf("discordtest: message %s never showed control %s", messageID, controlID)
	}
	data := map[string]any{"custom_id": controlID, "component_type": c.Type}
	if c.Type == selectType {
		if err := checkValues(c, values); err != nil {
			return nil, err
		}
		data["values"] = append([]string{}, values...)
	} else if len(values) > 0 {
		return nil, fmt.Errorf("discordtest: control %s is a button: no values", controlID)
	}
	return s.sendInteraction(u, channel, 3, data, m)
}

// checkValues allows what a select lets a user pick.
func checkValues(c component, values []string) error {
	lo := 1
	if c.MinValues != nil {
		lo = *c.MinValues
	}
	if len(values) < lo || len(values) > max(c.MaxValues, 1) {
		return fmt.Errorf("discordtest: select %s takes %d to %d values, not %d", c.CustomID, lo, max(c.MaxValues, 1), len(values))
	}
	for _, v := range values {
		if !slices.ContainsFunc(c.Options, func(o selectOption) bool { return o.Value == v }) {
			return fmt.Errorf("discordtest: select %s has no option %q", c.CustomID, v)
		}
	}
	return nil
}

// Submit implements bottest.Harness: u submits the modal last opened for
// them, with required fields and lengths checked as Discord's client does.
func (s *Server) Submit(ctx context.Context, u bottest.User, fields map[string]string) error {
	return s.interact(ctx, func() (*interaction, error) { return s.submit(u, fields) })
}

func (s *Server) submit(u bottest.User, fields map[string]string) (*interaction, error) {
	md := s.modals[u.ID]
	if md == nil {
		return nil, fmt.Errorf("discordtest: no form is open for %s", u.Name)
	}
	rows, err := submitted(md.body.Components, fields)
	if err != nil {
		return nil, err
	}
	delete(s.modals, u.ID)
	data := map[string]any{"custom_id": md.body.CustomID, "components": rows}
	return s.sendInteraction(u, md.channel, 5, data, nil)
}

func submitted(inputs []component, fields map[string]string) ([]any, error) {
	var rows []any
	known := map[string]bool{}
	for _, r := range inputs {
		in := r.Components[0]
		known[in.CustomID] = true
		v := fields[in.CustomID]
		if (in.Required && v == "") || (in.MaxLength > 0 && utf8.RuneCountInString(v) > in.MaxLength) {
			return nil, fmt.Errorf("discordtest: field %s: %q is not accepted", in.CustomID, v)
		}
		rows = append(rows, map[string]any{"type": actionRow, "components": []any{
			map[string]any{"type": textInput, "custom_id": in.CustomID, "value": v}}})
	}
	for id := range fields {
		if !known[id] {
			return nil, fmt.Errorf("discordtest: the form has no field %q", id)
		}
	}
	return rows, nil
}

// sendInteraction dispatches an INTERACTION_CREATE built like Discord's;
// the caller holds mu.
func (s *Server) sendInteraction(u bottest.User, channel string, typ int, data map[string]any, m *message) (*interaction, error) {
	ch := s.channels[channel]
	if ch == nil {
		return nil, fmt.Errorf("discordtest: no channel %s", channel)
	}
	it := &interaction{ID: s.newID(), Channel: channel, User: u, answered: make(chan struct{})}
	it.Token = "itoken-" + it.ID
	s.interactions[it.ID], s.interactions[it.Token] = it, it
	// As Discord does: the member's permissions where the interaction
	// happened (a user acts only in guilds they are a member of).
	g := s.join(ch, u)
	member := map[string]any{"user": userJSON(u), "roles": append([]string{}, g.members[u.ID]...),
		"permissions": strconv.FormatInt(s.perms(ch, u.ID), 10),
		"joined_at":   "2026-01-01T00:00:00Z", "deaf": false, "mute": false, "flags": 0}
	payload := map[string]any{"id": it.ID, "application_id": AppID, "type": typ, "token": it.Token, "version": 1,
		"guild_id": g.ID, "channel_id": channel, "channel": channelJSON(ch), "member": member, "data": data,
		"app_permissions": "2248473465835073", "locale": "en-US", "guild_locale": "en-US", "entitlements": []any{}, "context": 0}
	if m != nil {
		payload["message"] = s.messageJSON(m)
	}
	s.dispatchLocked("INTERACTION_CREATE", payload)
	return it, nil
}

// answerWait bounds how long a user waits for the bot to answer.
const answerWait = 10 * time.Second

// interact sends an interaction made by send, under mu, then waits, as
// the user does, until the bot answered it (a message or a form; a
// deferral counts once its follow-up came), ctx ended, or 10 s passed.
// So a caller sees what the bot did about it, as with bottest.Fake.
func (s *Server) interact(ctx context.Context, send func() (*interaction, error)) error {
	s.mu.Lock()
	if len(s.sessions) == 0 {
		s.mu.Unlock()
		return errNotConnected
	}
	it, err := send()
	s.mu.Unlock()
	if err != nil {
		return err
	}
	s.notify()
	t := time.NewTimer(answerWait)
	defer t.Stop()
	select {
	case <-it.answered:
	case <-ctx.Done():
	case <-t.C:
	}
	return nil
}
