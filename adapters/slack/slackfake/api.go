package slackfake

import (
	"encoding/json"
	"fmt"
)

// The Web API methods. Each returns the response fields besides "ok", or
// an error whose text is Slack's error code.

func (s *Server) postMessage(req request) (map[string]any, error) {
	m, err := messageFrom(req)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if err := s.appCheck(m.Channel, m.ThreadTS); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	m.TS, m.User, m.BotID = s.nextTS(), BotUserID, BotID
	m.remember()
	s.messages[m.Channel] = append(s.messages[m.Channel], m)
	s.mu.Unlock()
	if !s.opt.QuietBots {
		_ = s.sendEvent(messageEventOf(m)) // Slack tells the app about its own posts too
	}
	return map[string]any{"channel": m.Channel, "ts": m.TS, "message": map[string]any{"ts": m.TS, "text": m.Text}}, nil
}

// messageFrom reads a message's fields (form-encoded, blocks as a JSON
// string).
func messageFrom(req request) (*Message, error) {
	blocks, err := decodeBlocks(req.get("blocks"))
	if err != nil {
		return nil, err
	}
	m := &Message{Channel: req.get("channel"), ThreadTS: req.get("thread_ts"), Text: req.get("text"), Blocks: blocks,
		Username: req.get("username"), IconURL: req.get("icon_url")}
	if meta := req.get("metadata"); meta != "" {
		m.Metadata = &Metadata{}
		if err := json.Unmarshal([]byte(meta), m.Metadata); err != nil {
			return nil, fmt.Errorf("invalid_metadata_format")
		}
	}
	return m, checkMessage(m.Text, m.Blocks)
}

// appCheck checks that the app may post in the channel and the place
// exists. The caller holds mu.
func (s *Server) appCheck(channel, threadTS string) error {
	if err := s.appMay(channel); err != nil {
		return err
	}
	return s.checkPlace(channel, threadTS)
}

// checkPlace checks that the channel exists and the thread's root is a
// top-level message in it. The caller holds mu.
func (s *Server) checkPlace(channel, threadTS string) error {
	if _, ok := s.channels[channel]; !ok {
		return fmt.Errorf("channel_not_found")
	}
	if threadTS == "" {
		return nil
	}
	if root := s.find(channel, threadTS); root == nil || root.ThreadTS != "" {
		return fmt.Errorf("thread_not_found")
	}
	return nil
}

// find returns the message at ts in channel. The caller holds mu.
func (s *Server) find(channel, ts string) *Message {
	for _, m := range s.messages[channel] {
		if m.TS == ts && !m.Deleted {
			return m
		}
	}
	return nil
}

func (s *Server) update(req request) (map[string]any, error) {
	next, err := messageFrom(req)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.appMay(next.Channel); err != nil {
		return nil, err
	}
	m := s.find(next.Channel, req.get("ts"))
	switch {
	case m == nil:
		return nil, fmt.Errorf("message_not_found")
	case m.BotID != BotID:
		return nil, fmt.Errorf("cant_update_message")
	}
	m.Text, m.Blocks = next.Text, next.Blocks
	m.remember()
	return map[string]any{"channel": m.Channel, "ts": m.TS, "text": m.Text}, nil
}

func (s *Server) delete(req request) (map[string]any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.find(req.get("channel"), req.get("ts"))
	switch {
	case m == nil:
		return nil, fmt.Errorf("message_not_found")
	case m.BotID != BotID:
		return nil, fmt.Errorf("cant_delete_message")
	}
	m.Deleted = true
	return map[string]any{"channel": m.Channel, "ts": m.TS}, nil
}

func (s *Server) postEphemeral(req request) (map[string]any, error) {
	m, err := messageFrom(req)
	if err != nil {
		return nil, err
	}
	user := req.get("user")
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.appCheck(m.Channel, m.ThreadTS); err != nil {
		return nil, err
	}
	if _, ok := s.users[user]; !ok {
		return nil, fmt.Errorf("user_not_found")
	}
	e := &Ephemeral{Channel: m.Channel, ThreadTS: m.ThreadTS, User: user, Text: m.Text, Blocks: m.Blocks}
	s.private[user] = append(s.private[user], private{Ephemeral: e})
	return map[string]any{"message_ts": s.nextTS()}, nil
}

// openView opens a modal for the user whose act issued the trigger; a
// trigger opens one view.
func (s *Server) openView(req request) (map[string]any, error) {
	var v view
	if err := json.Unmarshal(req.json["view"], &v); err != nil {
		return nil, fmt.Errorf("invalid_arguments")
	}
	if err := checkView(v); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	trigger := req.get("trigger_id")
	user, ok := s.triggers[trigger]
	if !ok {
		return nil, fmt.Errorf("invalid_trigger_id")
	}
	delete(s.triggers, trigger)
	opened := &View{ID: s.nextID("V"), User: user, CallbackID: v.CallbackID, PrivateMetadata: v.PrivateMetadata,
		Title: v.Title.Text, Blocks: v.Blocks}
	s.private[user] = append(s.private[user], private{View: opened})
	return map[string]any{"view": map[string]any{"id": opened.ID, "type": "modal", "callback_id": v.CallbackID}}, nil
}

func (s *Server) userInfo(req request) (map[string]any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[req.get("user")]
	if !ok {
		return nil, fmt.Errorf("user_not_found")
	}
	return map[string]any{"user": map[string]any{"id": u.ID, "team_id": TeamID, "name": u.Name, "real_name": u.Name,
		"is_admin": u.Admin, "is_owner": false, "is_bot": u.Bot,
		"profile": map[string]any{"display_name": u.Name, "real_name": u.Name}}}, nil
}
