package slackfake

import (
	"fmt"
	"strings"
)

// What people do, delivered to the app over Socket Mode as Slack would.

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// Command runs "/roundtable text" as u in channel (Slack runs slash
// commands in channels only, never in threads). It returns the
// envelope's ID.
func (s *Server) Command(u User, channel, text string) (string, error) {
	s.AddUser(u)
	s.mu.Lock()
	name, ok := s.channels[channel]
	trigger := s.trigger(u.ID)
	url := s.responseURL(u.ID, channel, "commands", trigger)
	s.mu.Unlock()
	if !ok {
		return "", fmt.Errorf("slackfake: no channel %s", channel)
	}
	return s.send("slash_commands", map[string]any{"token": "verification-token", "team_id": TeamID, "team_domain": "fake",
		"channel_id": channel, "channel_name": name, "user_id": u.ID, "user_name": u.Name, "command": appCommand,
		"text": escaper.Replace(text), "api_app_id": AppID, "is_enterprise_install": "false",
		"response_url": url, "trigger_id": trigger})
}

// trigger issues a trigger_id for u's act. The caller holds mu.
func (s *Server) trigger(user string) string {
	id := s.nextID("trig.")
	s.triggers[id] = user
	return id
}

// Say posts text as u in channel, in the thread threadTS if set; the app
// gets a message event.
func (s *Server) Say(u User, channel, threadTS, text string) error {
	if s.Connected() == 0 {
		return ErrNotConnected
	}
	s.AddUser(u)
	s.mu.Lock()
	if err := s.checkPlace(channel, threadTS); err != nil {
		s.mu.Unlock()
		return fmt.Errorf("slackfake: say in %s/%s: %w", channel, threadTS, err)
	}
	m := &Message{Channel: channel, ThreadTS: threadTS, TS: s.nextTS(), User: u.ID, Text: escaper.Replace(text)}
	s.messages[channel] = append(s.messages[channel], m)
	s.mu.Unlock()
	s.notify()
	return s.sendEvent(messageEventOf(m))
}

// messageEventOf is the message event Slack sends for m.
func messageEventOf(m *Message) map[string]any {
	ev := map[string]any{"type": "message", "channel": m.Channel, "user": m.User, "text": m.Text, "ts": m.TS,
		"event_ts": m.TS, "channel_type": "channel"}
	if m.ThreadTS != "" {
		ev["thread_ts"] = m.ThreadTS
	}
	if m.BotID != "" {
		ev["bot_id"], ev["app_id"] = m.BotID, AppID
	}
	if m.Username != "" {
		ev["subtype"], ev["username"] = "bot_message", m.Username
	}
	return ev
}

// sendEvent wraps an event in an event_callback and sends it.
func (s *Server) sendEvent(ev map[string]any) error {
	s.mu.Lock()
	id := s.nextID("Ev")
	s.mu.Unlock()
	_, err := s.send("events_api", map[string]any{"token": "verification-token", "team_id": TeamID, "api_app_id": AppID,
		"type": "event_callback", "event_id": id, "event_time": 1700000000, "event": ev})
	return err
}

// Click presses the control actionID of the message ts in channel as u;
// values are a select's chosen option values. A control the message no
// longer shows can still be pressed (a client that has not refreshed).
func (s *Server) Click(u User, channel, ts, actionID string, values ...string) error {
	s.AddUser(u)
	s.mu.Lock()
	m := s.find(channel, ts)
	if m == nil {
		s.mu.Unlock()
		return fmt.Errorf("slackfake: no message %s in %s", ts, channel)
	}
	el, ok := m.element(actionID)
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("slackfake: message %s has no control %q", ts, actionID)
	}
	trigger := s.trigger(u.ID)
	name := s.channels[channel]
	url := s.responseURL(u.ID, channel, "actions", trigger)
	s.mu.Unlock()
	action, err := actionOf(el, values)
	if err != nil {
		return err
	}
	payload := blockActions(u, m, name, trigger, action)
	payload["response_url"] = url
	_, err = s.send("interactive", payload)
	return err
}

// blockActions is the payload of a click on message m. It reads only
// fields that never change after posting, so it needs no lock.
func blockActions(u User, m *Message, channelName, trigger string, action map[string]any) map[string]any {
	return map[string]any{"type": "block_actions", "team": map[string]any{"id": TeamID, "domain": "fake"},
		"user": userOf(u), "api_app_id": AppID, "token": "verification-token", "trigger_id": trigger,
		"container": map[string]any{"type": "message", "message_ts": m.TS, "channel_id": m.Channel,
			"is_ephemeral": false, "thread_ts": m.ThreadTS},
		"channel":      map[string]any{"id": m.Channel, "name": channelName},
		"message":      map[string]any{"type": "message", "ts": m.TS, "thread_ts": m.ThreadTS, "bot_id": m.BotID},
		"response_url": "https://hooks.slack.invalid/actions/" + trigger, "actions": []any{action},
		"state": map[string]any{"values": map[string]any{}}}
}

func userOf(u User) map[string]any {
	return map[string]any{"id": u.ID, "username": u.Name, "name": u.Name, "team_id": TeamID}
}

// actionOf is the action object of a pressed element. It carries the
// block_id: without one slack-go takes it for a legacy attachment action.
func actionOf(e shownElement, values []string) (map[string]any, error) {
	a := map[string]any{"type": e.Element.Type, "action_id": e.Element.ActionID, "block_id": e.BlockID, "action_ts": "1700000000.000001"}
	switch e.Element.Type {
	case "button":
		a["text"], a["value"] = e.Element.Text, e.Element.Value
	case "static_select":
		if len(values) != 1 {
			return nil, fmt.Errorf("slackfake: a select takes one value, not %d", len(values))
		}
		a["selected_option"] = optionOf(e.Element, values[0])
	case "multi_static_select":
		if n := e.Element.MaxSelectedItems; n > 0 && len(values) > n {
			return nil, fmt.Errorf("slackfake: at most %d values", n)
		}
		opts := []any{}
		for _, v := range values {
			opts = append(opts, optionOf(e.Element, v))
		}
		a["selected_options"] = opts
	default:
		return nil, fmt.Errorf("slackfake: cannot press a %s", e.Element.Type)
	}
	return a, nil
}

// optionOf is the chosen option with its text. The fake does not check
// that the value is offered, so tests can exercise the app's own checks.
func optionOf(e Element, value string) map[string]any {
	text := Text{Type: "plain_text", Text: value}
	for _, o := range e.Options {
		if o.Value == value {
			text = o.Text
		}
	}
	return map[string]any{"text": text, "value": value}
}
