package discord

import (
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/bot"
)

// Discord's limits on what a message, a component and a modal may hold.
const (
	maxText          = 2000 // characters of message content
	maxRows          = 5    // action rows per message
	maxButtonsPerRow = 5
	maxSelectOptions = 25
	maxOptionText    = 100 // option labels and values
	maxButtonLabel   = 80
	maxPlaceholder   = 150 // select placeholders
	maxInputHint     = 100 // text input placeholders
	maxModalFields   = 5
	maxModalLabel    = 45 // modal titles and text input labels
	maxInputLen      = 4000
	maxThreadName    = 100
	maxWebhookName   = 80
)

// split cuts text into parts of at most limit characters, at a line break
// or else a space in the second half of each part when there is one.
func split(text string, limit int) []string {
	var parts []string
	for utf8.RuneCountInString(text) > limit {
		end, next := cutPoint(text, limit)
		parts = append(parts, text[:end])
		text = text[next:]
	}
	return append(parts, text)
}

// cutPoint returns where the first part of text ends and the next begins.
func cutPoint(text string, limit int) (end, next int) {
	b := byteIndex(text, limit)
	for _, sep := range []string{"\n", " "} {
		if i := strings.LastIndex(text[:b], sep); i > 0 && i >= b/2 {
			return i, i + len(sep)
		}
	}
	return b, b
}

// byteIndex returns the byte offset of the n-th rune of s.
func byteIndex(s string, n int) int {
	i := 0
	for pos := range s {
		if i == n {
			return pos
		}
		i++
	}
	return len(s)
}

// clip shortens s to at most n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return s[:byteIndex(s, n-1)] + "…"
}

// components lays controls out in action rows: consecutive buttons share
// rows of up to five, each select has a row of its own. It returns the
// rows and how many controls did not fit in Discord's five rows.
func components(controls []bot.Control) ([]discordgo.MessageComponent, int) {
	var rows [][]discordgo.MessageComponent
	var buttons []discordgo.MessageComponent
	flush := func() {
		if len(buttons) > 0 {
			rows, buttons = append(rows, buttons), nil
		}
	}
	for _, c := range controls {
		if c.Kind == bot.Select {
			flush()
			rows = append(rows, []discordgo.MessageComponent{selectMenu(c)})
			continue
		}
		if len(buttons) == maxButtonsPerRow {
			flush()
		}
		buttons = append(buttons, button(c))
	}
	flush()
	dropped := 0
	for _, r := range rows[min(len(rows), maxRows):] {
		dropped += len(r)
	}
	out := make([]discordgo.MessageComponent, 0, min(len(rows), maxRows))
	for _, r := range rows[:min(len(rows), maxRows)] {
		out = append(out, discordgo.ActionsRow{Components: r})
	}
	return out, dropped
}

func button(c bot.Control) discordgo.Button {
	style := discordgo.SecondaryButton
	if c.Primary {
		style = discordgo.PrimaryButton
	}
	return discordgo.Button{CustomID: c.ID, Label: clip(orDefault(c.Label, c.ID), maxButtonLabel), Style: style}
}

// selectMenu renders a select; Max > 1 makes it a multi-select. At most
// 25 options fit; the rest are left out.
func selectMenu(c bot.Control) discordgo.SelectMenu {
	opts := c.Options[:min(len(c.Options), maxSelectOptions)]
	menu := discordgo.SelectMenu{MenuType: discordgo.StringSelectMenu, CustomID: c.ID,
		Placeholder: clip(c.Label, maxPlaceholder)}
	for _, o := range opts {
		menu.Options = append(menu.Options, discordgo.SelectMenuOption{
			Label: clip(orDefault(o.Label, o.Value), maxOptionText), Value: clip(o.Value, maxOptionText)})
	}
	hi := min(max(c.Max, 1), max(len(opts), 1))
	lo := min(max(c.Min, 0), hi)
	menu.MinValues, menu.MaxValues = &lo, hi
	return menu
}

// modal renders a form as a modal of text inputs (Discord's modals hold
// nothing else); a field with options lists them in its placeholder. It
// returns how many fields did not fit in Discord's five.
func modal(f bot.Form) (*discordgo.InteractionResponseData, int) {
	fields := f.Fields[:min(len(f.Fields), maxModalFields)]
	data := &discordgo.InteractionResponseData{CustomID: f.ID, Title: clip(orDefault(f.Title, "roundtable"), maxModalLabel)}
	for _, fl := range fields {
		data.Components = append(data.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{textInput(fl)}})
	}
	return data, len(f.Fields) - len(fields)
}

func textInput(f bot.Field) discordgo.TextInput {
	in := discordgo.TextInput{CustomID: f.ID, Label: clip(orDefault(f.Label, f.ID), maxModalLabel), Style: discordgo.TextInputShort,
		Placeholder: clip(f.Placeholder, maxInputHint), Value: clip(f.Value, maxInputLen), Required: !f.Optional}
	if f.Long {
		in.Style = discordgo.TextInputParagraph
	}
	if f.MaxLen > 0 {
		in.MaxLength = min(f.MaxLen, maxInputLen)
	}
	if len(f.Options) > 0 {
		in.Placeholder = clip(optionHint(f.Options), maxInputHint)
	}
	return in
}

// optionHint lists a field's option values for its placeholder.
func optionHint(opts []bot.Option) string {
	vals := make([]string, len(opts))
	for i, o := range opts {
		vals[i] = o.Value
	}
	return "One of: " + strings.Join(vals, ", ")
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// noMentions keeps agents' and people's text from pinging anyone
// (@everyone included).
func noMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}
