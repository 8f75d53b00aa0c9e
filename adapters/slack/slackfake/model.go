package slackfake

import (
	"encoding/json"
	"fmt"
)

// What users see, as the fake keeps it. The types decode Block Kit JSON
// by themselves (not with slack-go's types), so the fake checks what the
// adapter really sends.

// Message is a posted message: top level in a channel, or a reply in a
// thread (ThreadTS set).
type Message struct {
	Channel  string
	TS       string
	ThreadTS string
	User     string // author: a person, or the bot's user for the app
	BotID    string // set for the app's messages
	Username string // persona name override (chat:write.customize)
	IconURL  string
	Text     string // notification text
	Blocks   []Block
	Metadata *Metadata
	Files    []File // shared with files.completeUploadExternal
	Deleted  bool
	// shown is every element the message ever showed: a client that has
	// not refreshed still lets people press a removed button.
	shown map[string]shownElement
}

type shownElement struct {
	BlockID string
	Element Element
}

// Metadata is a message's metadata (event_type and payload).
type Metadata struct {
	EventType    string         `json:"event_type"`
	EventPayload map[string]any `json:"event_payload"`
}

// Block is a Block Kit block: section, actions or input.
type Block struct {
	Type     string    `json:"type"`
	BlockID  string    `json:"block_id,omitempty"`
	Text     *Text     `json:"text,omitempty"`
	Label    *Text     `json:"label,omitempty"`
	Optional bool      `json:"optional,omitempty"`
	Element  *Element  `json:"element,omitempty"`
	Elements []Element `json:"elements,omitempty"`
}

// Text is a text object.
type Text struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// Element is an interactive element: a button, a select or a text input.
type Element struct {
	Type             string   `json:"type"`
	ActionID         string   `json:"action_id"`
	Text             *Text    `json:"text,omitempty"`
	Value            string   `json:"value,omitempty"`
	Style            string   `json:"style,omitempty"`
	Placeholder      *Text    `json:"placeholder,omitempty"`
	Options          []Option `json:"options,omitempty"`
	MaxSelectedItems int      `json:"max_selected_items,omitempty"`
	Multiline        bool     `json:"multiline,omitempty"`
	MaxLength        int      `json:"max_length,omitempty"`
	InitialValue     string   `json:"initial_value,omitempty"`
}

// Option is a select's option.
type Option struct {
	Text  Text   `json:"text"`
	Value string `json:"value"`
}

// View is an opened modal.
type View struct {
	ID              string
	User            string
	CallbackID      string
	PrivateMetadata string
	Title           string
	Blocks          []Block
	// Submitted is set while a submission awaits its acknowledgement and
	// after the app accepted it; a refusal clears it.
	Submitted bool
	// Closed is set when the app acknowledged a submission plainly.
	Closed bool
	// Errors are what the view shows under its inputs, by block_id, after
	// the app refused the last submission (response_action "errors").
	Errors map[string]string
}

// Refusal is a submission the app refused: the view stayed open showing
// Errors (by block_id) under its inputs.
type Refusal struct {
	ViewID string
	Errors map[string]string
}

// Ephemeral is a message only one user sees.
type Ephemeral struct {
	Channel  string
	ThreadTS string
	User     string
	Text     string
	Blocks   []Block
}

// User is a workspace member.
type User struct {
	ID    string
	Name  string
	Admin bool // is_admin: the adapter's User.Manager
	Bot   bool
}

// private is one thing a user alone was shown.
type private struct {
	Ephemeral *Ephemeral
	View      *View
	Refusal   *Refusal
	File      *File // received in the user's direct message
}

// remember records the message's elements as shown.
func (m *Message) remember() {
	if m.shown == nil {
		m.shown = map[string]shownElement{}
	}
	for _, b := range m.Blocks {
		for _, e := range b.Elements {
			m.shown[e.ActionID] = shownElement{BlockID: b.BlockID, Element: e}
		}
	}
}

// element finds a control the message shows or once showed.
func (m *Message) element(actionID string) (shownElement, bool) {
	e, ok := m.shown[actionID]
	return e, ok
}

// view is the JSON of a modal as views.open receives it.
type view struct {
	Type            string  `json:"type"`
	Title           *Text   `json:"title"`
	CallbackID      string  `json:"callback_id"`
	PrivateMetadata string  `json:"private_metadata"`
	Blocks          []Block `json:"blocks"`
}

func decodeBlocks(s string) ([]Block, error) {
	if s == "" {
		return nil, nil
	}
	var bs []Block
	if err := json.Unmarshal([]byte(s), &bs); err != nil {
		return nil, fmt.Errorf("invalid_blocks_format: %w", err)
	}
	return bs, nil
}
