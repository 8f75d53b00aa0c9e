package slack

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/roundtable-ai/roundtable/bot"
)

func TestMrkdwn(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"bold", "**Round 1** starts", "*Round 1* starts"},
		{"italic stays", "_maybe_", "_maybe_"},
		{"code stays", "use `a**b` here", "use `a**b` here"},
		{"escaping", "a < b && c > d", "a &lt; b &amp;&amp; c &gt; d"},
		{"no mentions", "<!channel> hi <@U1>", "&lt;!channel&gt; hi &lt;@U1&gt;"},
		{"escaping in code", "`<x>`", "`&lt;x&gt;`"},
		{"list", "Candidates:\n- **A**: Pizza\n- B", "Candidates:\n• *A*: Pizza\n• B"},
		{"unclosed code", "a ` **b**", "a ` *b*"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := mrkdwn(c.in); got != c.want {
				t.Errorf("mrkdwn(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestSplitTextKeepsLimitsAndContent(t *testing.T) {
	cases := map[string]string{
		"lines":       strings.Repeat("a line of text\n", 500),
		"words":       strings.Repeat("word ", 2000),
		"one long":    strings.Repeat("x", 7000),
		"escapes":     strings.Repeat("&amp;", 1500),
		"multibyte":   strings.Repeat("é", 4000),
		"short":       "hello",
		"empty":       "",
		"exact limit": strings.Repeat("y", 3000),
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			parts := splitText(s, 3000)
			joined := 0
			for _, p := range parts {
				if len(p) > 3000 || !utf8.ValidString(p) {
					t.Fatalf("part of %d bytes (valid UTF-8: %v)", len(p), utf8.ValidString(p))
				}
				if strings.HasPrefix(p, "amp;") {
					t.Fatalf("an escape was cut in two")
				}
				joined += len(strings.ReplaceAll(strings.ReplaceAll(p, "\n", ""), " ", ""))
			}
			if want := len(strings.ReplaceAll(strings.ReplaceAll(s, "\n", ""), " ", "")); joined != want {
				t.Errorf("split lost text: %d of %d bytes", joined, want)
			}
		})
	}
}

func TestRenderLongMessage(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "- **%d**: %s\n", i, strings.Repeat("lorem ipsum ", 30))
	}
	controls := []bot.Control{{ID: "rt:t:1:ballot", Kind: bot.Button, Label: "Fill in your ballot", Primary: true}}
	parts := renderMessage(bot.Message{Text: b.String(), Controls: controls})
	if len(parts) < 4 {
		t.Fatalf("%d messages for %d characters, want at least 4", len(parts), b.Len())
	}
	for i, p := range parts {
		size := 0
		for _, bl := range p.blocks {
			if s, ok := bl.(*slack.SectionBlock); ok {
				size += len(s.Text.Text)
				if len(s.Text.Text) > maxSectionText {
					t.Errorf("section of %d characters", len(s.Text.Text))
				}
			}
		}
		if size > maxMessageText || len(p.blocks) > maxBlocks || p.text == "" {
			t.Errorf("message %d: %d characters, %d blocks, fallback %d", i, size, len(p.blocks), len(p.text))
		}
	}
	last := parts[len(parts)-1].blocks
	if _, ok := last[len(last)-1].(*slack.ActionBlock); !ok {
		t.Errorf("the controls are not on the last message")
	}
}

func TestRenderControlsWithinLimits(t *testing.T) {
	var opts []bot.Option
	for i := range 130 {
		opts = append(opts, bot.Option{Value: fmt.Sprintf("C%d", i), Label: strings.Repeat("long candidate text ", 10)})
	}
	var cs []bot.Control
	for i := range 30 {
		cs = append(cs, bot.Control{ID: fmt.Sprintf("b%d", i), Kind: bot.Button, Label: strings.Repeat("label ", 20)})
	}
	cs = append(cs, bot.Control{ID: "pick", Kind: bot.Select, Label: "Approve", Options: opts, Max: 130})
	blocks := actionBlocks(cs)
	if len(blocks) != 2 {
		t.Fatalf("%d actions blocks for 31 controls, want 2", len(blocks))
	}
	for _, b := range blocks {
		ab := b.(*slack.ActionBlock)
		if len(ab.Elements.ElementSet) > maxElements || ab.BlockID == "" {
			t.Errorf("actions block %q with %d elements", ab.BlockID, len(ab.Elements.ElementSet))
		}
	}
	sel := blocks[1].(*slack.ActionBlock).Elements.ElementSet[5].(*slack.MultiSelectBlockElement)
	if len(sel.Options) != maxOptions || *sel.MaxSelectedItems != maxOptions || sel.ActionID != "pick" {
		t.Errorf("select with %d options, max %d", len(sel.Options), *sel.MaxSelectedItems)
	}
	for _, o := range sel.Options {
		if utf8.RuneCountInString(o.Text.Text) > maxOptionText {
			t.Errorf("option text of %d characters", utf8.RuneCountInString(o.Text.Text))
		}
	}
}

func TestRenderModal(t *testing.T) {
	f := bot.Form{ID: "rt:t1:1:ballot", Title: "Round 1 ballot (cumulative)", Fields: []bot.Field{
		{ID: "ballot", Label: "Your ballot", Long: true, MaxLen: 4000, Placeholder: "A=2 B=1"},
		{ID: "rank1", Label: "1st choice", Options: []bot.Option{{Value: "A", Label: "A: North"}}, Value: "A", Optional: true},
	}}
	v, err := renderModal(f, "C1/1.0")
	if err != nil {
		t.Fatal(err)
	}
	if utf8.RuneCountInString(v.Title.Text) > maxModalTitle || v.CallbackID != f.ID || v.PrivateMetadata != `{"c":"C1/1.0"}` {
		t.Errorf("modal %q %q %q", v.Title.Text, v.CallbackID, v.PrivateMetadata)
	}
	text := v.Blocks.BlockSet[0].(*slack.InputBlock)
	if el := text.Element.(*slack.PlainTextInputBlockElement); text.BlockID != "ballot" || !el.Multiline || el.MaxLength != maxInputLength {
		t.Errorf("text input %+v", el)
	}
	sel := v.Blocks.BlockSet[1].(*slack.InputBlock)
	if el := sel.Element.(*slack.SelectBlockElement); sel.BlockID != "rank1" || !sel.Optional || el.InitialOption == nil {
		t.Errorf("select input %+v", el)
	}
	if !slack.ValidateUniqueBlockID(v) {
		t.Errorf("block IDs are not unique")
	}
}
