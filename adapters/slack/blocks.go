package slack

import (
	"encoding/json"
	"fmt"

	"github.com/slack-go/slack"

	"github.com/roundtable-ai/roundtable/bot"
)

// Block Kit limits (api.slack.com/reference/block-kit).
const (
	maxSectionText  = 3000  // characters of a section's text
	maxMessageText  = 11500 // characters of text in one message's blocks, under Slack's 12,000 (msg_blocks_too_long)
	maxBlocks       = 50    // blocks of a message
	maxElements     = 25    // elements of an actions block
	maxOptions      = 100   // options of a select
	maxOptionText   = 75    // characters of an option's or a button's text
	maxPlaceholder  = 150   // characters of a placeholder
	maxModalTitle   = 24    // characters of a modal's title
	maxLabel        = 2000  // characters of an input's label
	maxInputLength  = 3000  // plain_text_input max_length
	maxFallbackText = 3000  // characters of a message's notification text
)

// part is one Slack message of a bot.Message: long texts take several.
type part struct {
	text   string // notification (fallback) text
	blocks []slack.Block
}

// renderMessage lays m out as Block Kit messages: its text in sections,
// then its controls in actions blocks on the last message.
func renderMessage(m bot.Message) []part {
	actions := actionBlocks(m.Controls)
	room := maxMessageText - controlsSize(m.Controls) // every part keeps room for the controls
	var parts []part
	cur, size := part{}, 0
	for _, chunk := range sections(m.Text) {
		full := len(cur.blocks)+1 > maxBlocks-len(actions) || size+len(chunk) > room
		if full && len(cur.blocks) > 0 {
			parts = append(parts, cur)
			cur, size = part{}, 0
		}
		cur.blocks = append(cur.blocks, slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, chunk, false, false), nil, nil))
		if cur.text == "" {
			cur.text = clip(chunk, maxFallbackText)
		}
		size += len(chunk)
	}
	cur.blocks = append(cur.blocks, actions...)
	if cur.text == "" {
		cur.text = controlsText(m.Controls)
	}
	return append(parts, cur)
}

// controlsSize bounds the text the controls' elements carry (labels,
// placeholders, options), as Slack counts it against a message's blocks.
func controlsSize(cs []bot.Control) int {
	n := 0
	for _, c := range cs {
		n += min(len(c.Label), maxPlaceholder)
		for _, o := range c.Options[:min(len(c.Options), maxOptions)] {
			n += min(len(o.Label), maxOptionText) // bytes bound characters; labels are clipped
		}
	}
	return n
}

// sections cuts a text into section-sized mrkdwn chunks; none when empty.
func sections(text string) []string {
	if text == "" {
		return nil
	}
	return splitText(mrkdwn(text), maxSectionText)
}

func controlsText(cs []bot.Control) string {
	if len(cs) == 0 {
		return " "
	}
	return plain(cs[0].Label)
}

// actionBlocks holds the controls, at most maxElements per block.
func actionBlocks(cs []bot.Control) []slack.Block {
	var out []slack.Block
	for i := 0; i < len(cs); i += maxElements {
		var els []slack.BlockElement
		for _, c := range cs[i:min(i+maxElements, len(cs))] {
			els = append(els, element(c))
		}
		out = append(out, slack.NewActionBlock(fmt.Sprintf("actions-%d", i/maxElements), els...))
	}
	return out
}

// element is a control's Block Kit element; its action_id is the control
// ID, which block_actions payloads return.
func element(c bot.Control) slack.BlockElement {
	label := slack.NewTextBlockObject(slack.PlainTextType, clip(plain(c.Label), maxOptionText), false, false)
	if c.Kind != bot.Select {
		b := slack.NewButtonBlockElement(c.ID, c.ID, label)
		if c.Primary {
			b.Style = slack.StylePrimary
		}
		return b
	}
	ph := slack.NewTextBlockObject(slack.PlainTextType, clip(plain(c.Label), maxPlaceholder), false, false)
	opts := options(c.Options)
	if c.Max <= 1 {
		return slack.NewOptionsSelectBlockElement(slack.OptTypeStatic, ph, c.ID, opts...)
	}
	ms := slack.NewOptionsMultiSelectBlockElement(slack.MultiOptTypeStatic, ph, c.ID, opts...)
	n := min(c.Max, len(opts))
	ms.MaxSelectedItems = &n
	return ms
}

// options converts a select's options; past maxOptions they are cut (the
// bot falls back to a ballot form long before).
func options(os []bot.Option) []*slack.OptionBlockObject {
	var out []*slack.OptionBlockObject
	for _, o := range os[:min(len(os), maxOptions)] {
		text := slack.NewTextBlockObject(slack.PlainTextType, clip(plain(o.Label), maxOptionText), false, false)
		out = append(out, slack.NewOptionBlockObject(o.Value, text, nil))
	}
	return out
}

// renderModal lays a form out as a modal. Each input's block_id and
// action_id are its field ID; private_metadata carries the channel.
func renderModal(f bot.Form, channel string) (slack.ModalViewRequest, error) {
	meta, err := json.Marshal(formMeta{Channel: channel})
	if err != nil {
		return slack.ModalViewRequest{}, fmt.Errorf("form metadata: %w", err)
	}
	v := slack.ModalViewRequest{Type: slack.VTModal, CallbackID: f.ID, PrivateMetadata: string(meta),
		Title:  slack.NewTextBlockObject(slack.PlainTextType, clip(plain(f.Title), maxModalTitle), false, false),
		Submit: slack.NewTextBlockObject(slack.PlainTextType, "Submit", false, false),
		Close:  slack.NewTextBlockObject(slack.PlainTextType, "Cancel", false, false)}
	for _, fl := range f.Fields {
		v.Blocks.BlockSet = append(v.Blocks.BlockSet, input(fl))
	}
	return v, nil
}

// input is a form field: a select when it has options, else a text input.
func input(f bot.Field) *slack.InputBlock {
	label := slack.NewTextBlockObject(slack.PlainTextType, clip(plain(f.Label), maxLabel), false, false)
	var ph *slack.TextBlockObject
	if f.Placeholder != "" {
		ph = slack.NewTextBlockObject(slack.PlainTextType, clip(plain(f.Placeholder), maxPlaceholder), false, false)
	}
	var el slack.BlockElement
	if len(f.Options) > 0 {
		s := slack.NewOptionsSelectBlockElement(slack.OptTypeStatic, ph, f.ID, options(f.Options)...)
		for _, o := range s.Options {
			if o.Value == f.Value && f.Value != "" {
				s.InitialOption = o
			}
		}
		el = s
	} else {
		t := slack.NewPlainTextInputBlockElement(ph, f.ID)
		t.Multiline, t.InitialValue = f.Long, f.Value
		if f.MaxLen > 0 {
			t.MaxLength = min(f.MaxLen, maxInputLength)
		}
		el = t
	}
	b := slack.NewInputBlock(f.ID, label, nil, el)
	b.Optional = f.Optional
	return b
}
