package slackfake

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Submitting modals. Slack keeps a submitted modal open until the app
// acknowledges the view_submission: a plain ack closes it, an ack with
// {"response_action":"errors","errors":{...}} keeps it open and shows each
// error under the input whose block_id names it.

// genericError is what Slack shows when an errors ack names no input of
// the view.
const genericError = "We had some trouble connecting. Try again?"

// Submit submits the view most recently opened for u with fields (by
// block_id); fields left out are empty. A required field left empty is
// refused, as the Slack client refuses it. A view the app refused can be
// submitted again.
func (s *Server) Submit(u User, fields map[string]string) error {
	id := s.sock.newID()
	s.mu.Lock()
	v := s.lastView(u.ID)
	if v == nil {
		s.mu.Unlock()
		return fmt.Errorf("slackfake: no view is open for %s", u.ID)
	}
	values, err := stateOf(v, fields)
	if err != nil {
		s.mu.Unlock()
		return err
	}
	v.Submitted = true
	s.submits[id] = v
	trigger := s.trigger(u.ID)
	s.mu.Unlock()
	err = s.sendAs(id, "interactive", map[string]any{"type": "view_submission", "team": map[string]any{"id": TeamID, "domain": "fake"},
		"user": userOf(u), "api_app_id": AppID, "token": "verification-token", "trigger_id": trigger,
		"view": map[string]any{"id": v.ID, "team_id": TeamID, "type": "modal", "callback_id": v.CallbackID,
			"private_metadata": v.PrivateMetadata, "hash": "hash-" + v.ID, "title": Text{Type: "plain_text", Text: v.Title},
			"state": map[string]any{"values": values}},
		"response_urls": []any{}})
	if errors.Is(err, ErrNotConnected) {
		s.mu.Lock()
		v.Submitted = false
		delete(s.submits, id)
		s.mu.Unlock()
	}
	return err
}

// viewAcked applies the acknowledgement of a view_submission envelope:
// the view closes, or stays open showing the errors, which its user is
// shown as a Refusal. Other envelopes are ignored.
func (s *Server) viewAcked(envelopeID string, payload json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.submits[envelopeID]
	if !ok {
		return
	}
	delete(s.submits, envelopeID)
	var resp struct {
		ResponseAction string            `json:"response_action"`
		Errors         map[string]string `json:"errors"`
	}
	_ = json.Unmarshal(payload, &resp) // none, null or another action: the view closes
	if resp.ResponseAction != "errors" {
		v.Closed, v.Errors = true, nil
		return
	}
	v.Submitted, v.Errors = false, inputErrors(v, resp.Errors)
	s.private[v.User] = append(s.private[v.User], private{Refusal: &Refusal{ViewID: v.ID, Errors: v.Errors}})
}

// inputErrors keeps the errors that name an input of v; when none does,
// Slack shows a generic error instead (under the key "").
func inputErrors(v *View, errs map[string]string) map[string]string {
	out := map[string]string{}
	for _, b := range v.Blocks {
		if msg, ok := errs[b.BlockID]; ok && b.Type == "input" {
			out[b.BlockID] = msg
		}
	}
	if len(out) == 0 {
		out[""] = genericError
	}
	return out
}

// text is what a refusal shows, its messages in block_id order.
func (r Refusal) text() string {
	ids := make([]string, 0, len(r.Errors))
	for id := range r.Errors {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	msgs := make([]string, len(ids))
	for i, id := range ids {
		msgs[i] = r.Errors[id]
	}
	return strings.Join(msgs, "\n")
}

// Refusals returns the submissions of u's views that the app refused, in
// order.
func (s *Server) Refusals(user string) []Refusal {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Refusal
	for _, p := range s.private[user] {
		if p.Refusal != nil {
			out = append(out, *p.Refusal)
		}
	}
	return out
}

// lastView is u's newest view, if it is open and not awaiting an ack.
// The caller holds mu.
func (s *Server) lastView(user string) *View {
	ps := s.private[user]
	for i := len(ps) - 1; i >= 0; i-- {
		if v := ps[i].View; v != nil {
			if v.Submitted {
				return nil
			}
			return v
		}
	}
	return nil
}

// stateOf is a submitted view's state.values.
func stateOf(v *View, fields map[string]string) (map[string]any, error) {
	known := map[string]bool{}
	values := map[string]any{}
	for _, b := range v.Blocks {
		if b.Type != "input" || b.Element == nil {
			continue
		}
		known[b.BlockID] = true
		val, given := fields[b.BlockID]
		if !b.Optional && strings.TrimSpace(val) == "" {
			return nil, fmt.Errorf("slackfake: the required field %q is empty", b.BlockID)
		}
		item := map[string]any{"type": b.Element.Type}
		switch {
		case b.Element.Type == "plain_text_input":
			item["value"] = nilIfEmpty(val, given)
		case val != "":
			item["selected_option"] = optionOf(*b.Element, val)
		default:
			item["selected_option"] = nil
		}
		values[b.BlockID] = map[string]any{b.Element.ActionID: item}
	}
	for id := range fields {
		if !known[id] {
			return nil, fmt.Errorf("slackfake: the view has no field %q", id)
		}
	}
	return values, nil
}

func nilIfEmpty(v string, given bool) any {
	if !given || v == "" {
		return nil
	}
	return v
}
