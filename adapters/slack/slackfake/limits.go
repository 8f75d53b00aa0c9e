package slackfake

import (
	"fmt"
	"unicode/utf8"
)

// Slack's Block Kit limits, enforced as Slack does: the call fails with
// invalid_blocks (or msg_too_long), so an adapter that ignores a limit
// fails its tests instead of Slack failing its users.

// maxBlocksText is how many characters of text a message's blocks may
// hold: Slack refuses more with msg_blocks_too_long, whatever the blocks.
const maxBlocksText = 12000

func checkMessage(text string, blocks []Block) error {
	if utf8.RuneCountInString(text) > 40000 {
		return fmt.Errorf("msg_too_long")
	}
	if blocksText(blocks) > maxBlocksText {
		return fmt.Errorf("msg_blocks_too_long")
	}
	if text == "" && len(blocks) == 0 {
		return fmt.Errorf("no_text")
	}
	if len(blocks) > 50 {
		return fmt.Errorf("invalid_blocks: %d blocks, at most 50", len(blocks))
	}
	ids := map[string]bool{}
	for i, b := range blocks {
		if err := checkBlock(b, ids); err != nil {
			return fmt.Errorf("invalid_blocks: block %d: %w", i, err)
		}
	}
	return nil
}

// BlocksText is how many characters of text the message's blocks hold,
// as Slack counts them against its 12,000.
func (m Message) BlocksText() int { return blocksText(m.Blocks) }

// blocksText counts the characters of the text objects of blocks: section
// texts, labels, buttons' texts, placeholders and options.
func blocksText(blocks []Block) int {
	n := 0
	count := func(t *Text) {
		if t != nil {
			n += utf8.RuneCountInString(t.Text)
		}
	}
	for _, b := range blocks {
		count(b.Text)
		count(b.Label)
		els := b.Elements
		if b.Element != nil {
			els = append(els, *b.Element)
		}
		for _, e := range els {
			count(e.Text)
			count(e.Placeholder)
			for _, o := range e.Options {
				count(&o.Text)
			}
		}
	}
	return n
}

func checkBlock(b Block, ids map[string]bool) error {
	if b.BlockID != "" {
		if ids[b.BlockID] {
			return fmt.Errorf("duplicate block_id %q", b.BlockID)
		}
		ids[b.BlockID] = true
	}
	switch b.Type {
	case "section":
		if b.Text == nil || b.Text.Text == "" {
			return fmt.Errorf("section without text")
		}
		return maxLen("section text", b.Text.Text, 3000)
	case "actions":
		if len(b.Elements) == 0 || len(b.Elements) > 25 {
			return fmt.Errorf("actions block with %d elements (1 to 25)", len(b.Elements))
		}
		for _, e := range b.Elements {
			if err := checkElement(e); err != nil {
				return err
			}
		}
		return nil
	case "input":
		if b.Label == nil || b.Element == nil {
			return fmt.Errorf("input without label or element")
		}
		if err := maxLen("label", b.Label.Text, 2000); err != nil {
			return err
		}
		return checkElement(*b.Element)
	}
	return fmt.Errorf("unsupported block type %q", b.Type)
}

func checkElement(e Element) error {
	if e.ActionID == "" || len(e.ActionID) > 255 {
		return fmt.Errorf("%s: action_id %q (1 to 255 characters)", e.Type, e.ActionID)
	}
	if e.Placeholder != nil {
		if err := maxLen("placeholder", e.Placeholder.Text, 150); err != nil {
			return err
		}
	}
	switch e.Type {
	case "button":
		if e.Text == nil {
			return fmt.Errorf("button without text")
		}
		return maxLen("button text", e.Text.Text, 75)
	case "static_select", "multi_static_select":
		return checkOptions(e.Options)
	case "plain_text_input":
		if e.MaxLength > 3000 {
			return fmt.Errorf("max_length %d, at most 3000", e.MaxLength)
		}
		return nil
	}
	return fmt.Errorf("unsupported element type %q", e.Type)
}

func checkOptions(os []Option) error {
	if len(os) == 0 || len(os) > 100 {
		return fmt.Errorf("select with %d options (1 to 100)", len(os))
	}
	for _, o := range os {
		if err := maxLen("option text", o.Text.Text, 75); err != nil {
			return err
		}
		if err := maxLen("option value", o.Value, 150); err != nil {
			return err
		}
	}
	return nil
}

func checkView(v view) error {
	if v.Type != "modal" || v.Title == nil {
		return fmt.Errorf("invalid_arguments: a modal needs a type and a title")
	}
	if err := maxLen("title", v.Title.Text, 24); err != nil {
		return fmt.Errorf("invalid_arguments: %w", err)
	}
	if len(v.Blocks) > 100 || len(v.PrivateMetadata) > 3000 || len(v.CallbackID) > 255 {
		return fmt.Errorf("invalid_arguments: too many blocks or too long metadata")
	}
	ids := map[string]bool{}
	for i, b := range v.Blocks {
		if err := checkBlock(b, ids); err != nil {
			return fmt.Errorf("invalid_arguments: block %d: %w", i, err)
		}
	}
	return nil
}

func maxLen(what, s string, n int) error {
	if c := utf8.RuneCountInString(s); c > n {
		return fmt.Errorf("%s of %d characters, at most %d", what, c, n)
	}
	return nil
}
