package discordtest

import (
	"fmt"
	"time"
	"unicode/utf8"
)

// component is a message or modal component as Discord sends and
// receives it (type 1 action row, 2 button, 3 string select, 4 text input).
type component struct {
	Type        int            `json:"type"`
	CustomID    string         `json:"custom_id,omitempty"`
	Label       string         `json:"label,omitempty"`
	Style       int            `json:"style,omitempty"`
	Placeholder string         `json:"placeholder,omitempty"`
	Options     []selectOption `json:"options,omitempty"`
	MinValues   *int           `json:"min_values,omitempty"`
	MaxValues   int            `json:"max_values,omitempty"`
	Value       string         `json:"value,omitempty"`
	Required    bool           `json:"required,omitempty"`
	MaxLength   int            `json:"max_length,omitempty"`
	Components  []component    `json:"components,omitempty"`
}

type selectOption struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// Component types.
const (
	actionRow  = 1
	buttonType = 2
	selectType = 3
	textInput  = 4
)

// messageBody is what message creates, webhook executions, follow-ups and
// interaction responses carry.
type messageBody struct {
	Content    string      `json:"content"`
	Components []component `json:"components"`
	Flags      int         `json:"flags"`
	Username   string      `json:"username"`
	AvatarURL  string      `json:"avatar_url"`
	CustomID   string      `json:"custom_id"` // modals
	Title      string      `json:"title"`     // modals
	// Nonce with EnforceNonce makes a create with the nonce of an earlier
	// message of the same author return that message.
	Nonce        string `json:"nonce"`
	EnforceNonce bool   `json:"enforce_nonce"`
}

// editBody is a message edit: absent fields stay as they are.
type editBody struct {
	Content    *string      `json:"content"`
	Components *[]component `json:"components"`
}

// callbackBody is an interaction response.
type callbackBody struct {
	Type int          `json:"type"`
	Data *messageBody `json:"data"`
}

// Interaction response types and message flags.
const (
	respondMessage  = 4
	respondDeferred = 5
	respondUpdate6  = 6
	respondUpdate7  = 7
	respondModal    = 9
	flagEphemeral   = 64
)

// commandDef is a registered application command or one of its options.
type commandDef struct {
	ID            string       `json:"id,omitempty"`
	ApplicationID string       `json:"application_id,omitempty"`
	GuildID       string       `json:"guild_id,omitempty"`
	Version       string       `json:"version,omitempty"`
	Type          int          `json:"type,omitempty"`
	Name          string       `json:"name"`
	Description   string       `json:"description"`
	Required      bool         `json:"required,omitempty"`
	Choices       []choice     `json:"choices,omitempty"`
	Options       []commandDef `json:"options,omitempty"`
	MinValue      *float64     `json:"min_value,omitempty"`
	MaxValue      float64      `json:"max_value,omitempty"`
	MaxLength     int          `json:"max_length,omitempty"`
}

type choice struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// Option types of application commands.
const (
	optSubcommand = 1
	optString     = 3
	optInteger    = 4
)

// validateCommand checks names, descriptions and option counts as
// Discord does; depth is 0 for a command, 1 for its options.
func validateCommand(c commandDef, depth int) error {
	if !validName(c.Name) || c.Description == "" || utf8.RuneCountInString(c.Description) > 100 {
		return fmt.Errorf("command or option %q: bad name or description", c.Name)
	}
	if len(c.Options) > 25 || len(c.Choices) > 25 || depth > 2 {
		return fmt.Errorf("%q: too many options, choices or levels", c.Name)
	}
	optional := false
	for _, o := range c.Options {
		if o.Required && optional {
			return fmt.Errorf("%q: required option %q after an optional one", c.Name, o.Name)
		}
		optional = optional || !o.Required
		if err := validateCommand(o, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func validName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// validateMessage checks what Discord checks of a message: its length,
// rows, buttons, selects and their options.
func validateMessage(text string, rows []component, files int) error {
	if n := utf8.RuneCountInString(text); n > 2000 {
		return fmt.Errorf("content: %d characters, at most 2000", n)
	}
	if text == "" && len(rows) == 0 && files == 0 {
		return fmt.Errorf("cannot send an empty message")
	}
	if len(rows) > 5 {
		return fmt.Errorf("components: %d rows, at most 5", len(rows))
	}
	for _, r := range rows {
		if err := validateRow(r); err != nil {
			return err
		}
	}
	return nil
}

func validateRow(r component) error {
	if r.Type != actionRow || len(r.Components) == 0 || len(r.Components) > 5 {
		return fmt.Errorf("components: a row holds 1 to 5 components, got %d (type %d)", len(r.Components), r.Type)
	}
	for _, c := range r.Components {
		if err := validateControl(c, len(r.Components)); err != nil {
			return err
		}
	}
	return nil
}

func validateControl(c component, inRow int) error {
	if c.CustomID == "" || len(c.CustomID) > 100 {
		return fmt.Errorf("custom_id %q: 1 to 100 characters", c.CustomID)
	}
	switch c.Type {
	case buttonType:
		if utf8.RuneCountInString(c.Label) > 80 {
			return fmt.Errorf("button label %q: at most 80 characters", c.Label)
		}
	case selectType:
		if inRow != 1 {
			return fmt.Errorf("a select fills its row")
		}
		if len(c.Options) == 0 || len(c.Options) > 25 {
			return fmt.Errorf("select %s: 1 to 25 options, got %d", c.CustomID, len(c.Options))
		}
		for _, o := range c.Options {
			if utf8.RuneCountInString(o.Label) > 100 || utf8.RuneCountInString(o.Value) > 100 {
				return fmt.Errorf("select %s: option text over 100 characters", c.CustomID)
			}
		}
		if c.MaxValues > len(c.Options) || (c.MinValues != nil && *c.MinValues > max(c.MaxValues, 1)) {
			return fmt.Errorf("select %s: min/max values out of range", c.CustomID)
		}
	default:
		return fmt.Errorf("component type %d does not belong in a message", c.Type)
	}
	return nil
}

// validateModal checks a modal: title, at most five rows of one text
// input each, labels of at most 45 characters.
func validateModal(m *messageBody) error {
	if m.CustomID == "" || m.Title == "" || utf8.RuneCountInString(m.Title) > 45 {
		return fmt.Errorf("modal: custom_id and a title of 1 to 45 characters are required")
	}
	if len(m.Components) == 0 || len(m.Components) > 5 {
		return fmt.Errorf("modal: 1 to 5 rows, got %d", len(m.Components))
	}
	for _, r := range m.Components {
		if r.Type != actionRow || len(r.Components) != 1 || r.Components[0].Type != textInput {
			return fmt.Errorf("modal: each row holds one text input")
		}
		in := r.Components[0]
		if in.CustomID == "" || in.Label == "" || utf8.RuneCountInString(in.Label) > 45 ||
			utf8.RuneCountInString(in.Placeholder) > 100 || in.MaxLength > 4000 {
			return fmt.Errorf("modal: text input %q out of limits", in.CustomID)
		}
	}
	return nil
}

// timestamp renders t as Discord does.
func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
