package discord

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/bot"
)

func TestSplitKeepsTextAndLimits(t *testing.T) {
	cases := []struct {
		name, text string
		limit      int
		want       []string
	}{
		{"short", "abc", 10, []string{"abc"}},
		{"at a line break", "aaaa\nbbbb\ncc", 10, []string{"aaaa\nbbbb", "cc"}},
		{"at a space", "aaaa bbbb cc", 10, []string{"aaaa bbbb", "cc"}},
		{"hard cut", strings.Repeat("x", 25), 10, []string{strings.Repeat("x", 10), strings.Repeat("x", 10), "xxxxx"}},
		{"runes, not bytes", strings.Repeat("é", 12), 10, []string{strings.Repeat("é", 10), "éé"}},
		{"an early break is not used", "a\n" + strings.Repeat("x", 12), 10, []string{"a\n" + strings.Repeat("x", 8), "xxxx"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := split(c.text, c.limit)
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
			for _, p := range got {
				if utf8.RuneCountInString(p) > c.limit {
					t.Errorf("part %q over the limit", p)
				}
			}
		})
	}
}

func TestComponentsLayout(t *testing.T) {
	btn := func(id string) bot.Control { return bot.Control{ID: id, Kind: bot.Button, Label: id} }
	sel := bot.Control{ID: "s", Kind: bot.Select, Label: "pick", Options: []bot.Option{{Value: "A"}, {Value: "B"}}, Min: 0, Max: 5}
	cases := []struct {
		name     string
		controls []bot.Control
		shape    string
		dropped  int
	}{
		{"none", nil, "[]", 0},
		{"six buttons", []bot.Control{btn("1"), btn("2"), btn("3"), btn("4"), btn("5"), btn("6")}, "[5 1]", 0},
		{"select between buttons", []bot.Control{btn("1"), sel, btn("2")}, "[1 1 1]", 0},
		{"six selects", []bot.Control{sel, sel, sel, sel, sel, sel, btn("x")}, "[1 1 1 1 1]", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows, dropped := components(c.controls)
			var shape []int
			for _, r := range rows {
				shape = append(shape, len(r.(discordgo.ActionsRow).Components))
			}
			if got := fmt.Sprint(append([]int{}, shape...)); got != c.shape || dropped != c.dropped {
				t.Errorf("rows %s dropped %d, want %s and %d", got, dropped, c.shape, c.dropped)
			}
		})
	}
}

func TestSelectBounds(t *testing.T) {
	opts := make([]bot.Option, 30)
	for i := range opts {
		opts[i] = bot.Option{Value: fmt.Sprint(i), Label: strings.Repeat("L", 120)}
	}
	m := selectMenu(bot.Control{ID: "s", Kind: bot.Select, Options: opts, Min: 0, Max: 30})
	if len(m.Options) != 25 || m.MaxValues != 25 || *m.MinValues != 0 || utf8.RuneCountInString(m.Options[0].Label) != 100 {
		t.Errorf("select %d options, min %d max %d, label %d chars", len(m.Options), *m.MinValues, m.MaxValues, utf8.RuneCountInString(m.Options[0].Label))
	}
	single := selectMenu(bot.Control{ID: "s", Kind: bot.Select, Options: opts[:3], Min: 1, Max: 1})
	if *single.MinValues != 1 || single.MaxValues != 1 {
		t.Errorf("single select min %d max %d", *single.MinValues, single.MaxValues)
	}
}

func TestModalFromForm(t *testing.T) {
	f := bot.Form{ID: "rt:t:1:ballot", Title: strings.Repeat("T", 60), Fields: []bot.Field{
		{ID: "text", Label: "Your message", Long: true, MaxLen: 9000},
		{ID: "rank1", Label: strings.Repeat("L", 50), Options: []bot.Option{{Value: "A"}, {Value: "B"}}, Optional: true},
		{ID: "c"}, {ID: "d"}, {ID: "e"}, {ID: "f"},
	}}
	data, dropped := modal(f)
	if dropped != 1 || len(data.Components) != 5 || utf8.RuneCountInString(data.Title) != 45 {
		t.Fatalf("modal: %d rows, %d dropped, title %q", len(data.Components), dropped, data.Title)
	}
	in := func(i int) discordgo.TextInput {
		return data.Components[i].(discordgo.ActionsRow).Components[0].(discordgo.TextInput)
	}
	if a := in(0); a.Style != discordgo.TextInputParagraph || a.MaxLength != 4000 || !a.Required {
		t.Errorf("long field: %+v", a)
	}
	if b := in(1); b.Placeholder != "One of: A, B" || b.Required || utf8.RuneCountInString(b.Label) != 45 {
		t.Errorf("field with options: %+v", b)
	}
	if c := in(2); c.Label != "c" || c.Style != discordgo.TextInputShort {
		t.Errorf("bare field: %+v", c)
	}
}

func TestPersonaNames(t *testing.T) {
	for name, want := range map[string]string{"Scribe": "Scribe", "": "agent", "My Discord helper": "My D\u200biscord helper"} {
		if got := personaName(name); got != want {
			t.Errorf("personaName(%q) = %q, want %q", name, got, want)
		}
	}
}
