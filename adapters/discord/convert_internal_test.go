package discord

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/bot"
)

func decodeInteraction(t *testing.T, raw string) *discordgo.Interaction {
	t.Helper()
	var i discordgo.Interaction
	if err := json.Unmarshal([]byte(raw), &i); err != nil {
		t.Fatal(err)
	}
	return &i
}

func noParent(string) string { return "" }

const aliceMember = `"member":{"nick":"Ali","roles":["7"],"permissions":"16","user":{"id":"1","username":"alice","global_name":"Alice"}}`

func TestInteractionsBecomeEvents(t *testing.T) {
	cases := []struct {
		name, raw string
		want      bot.Event
	}{
		{"command with subcommand options", `{"id":"9","type":2,"channel_id":"5",` + aliceMember + `,"data":{"name":"roundtable","type":1,
			"options":[{"name":"start","type":1,"options":[{"name":"topic","type":3,"value":"Lunch"},{"name":"rounds","type":4,"value":3}]}]}}`,
			bot.Event{Kind: bot.KindCommand, Command: "start", Options: map[string]string{"topic": "Lunch", "rounds": "3"}}},
		{"command without subcommand shows help", `{"id":"9","type":2,"channel_id":"5",` + aliceMember + `,"data":{"name":"roundtable","type":1}}`,
			bot.Event{Kind: bot.KindCommand, Options: map[string]string{}}},
		{"select", `{"id":"9","type":3,"channel_id":"5",` + aliceMember + `,"data":{"custom_id":"rt:t:1:choose","component_type":3,"values":["A","B"]}}`,
			bot.Event{Kind: bot.KindAction, Action: "rt:t:1:choose", Values: []string{"A", "B"}}},
		{"modal submit", `{"id":"9","type":5,"channel_id":"5",` + aliceMember + `,"data":{"custom_id":"rt:t:1:msg","components":[
			{"type":1,"components":[{"type":4,"custom_id":"text","value":"hi"}]},{"type":1,"components":[{"type":4,"custom_id":"x","value":""}]}]}}`,
			bot.Event{Kind: bot.KindSubmit, Action: "rt:t:1:msg", Fields: map[string]string{"text": "hi", "x": ""}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := interactionEvent(decodeInteraction(t, c.raw), noParent)
			want := c.want
			want.Platform, want.ID, want.Channel = "discord", "9", "5"
			want.User = bot.User{ID: "1", Name: "Ali", Roles: []string{"7"}, Manager: true}
			if ev == nil || !reflect.DeepEqual(*ev, want) {
				t.Errorf("got %+v\nwant %+v", ev, want)
			}
		})
	}
}

func TestOtherInteractionsAreSkipped(t *testing.T) {
	for _, raw := range []string{`{"id":"9","type":1}`, `{"id":"9","type":2,"data":{"name":"other","type":1}}`} {
		if ev := interactionEvent(decodeInteraction(t, raw), noParent); ev != nil {
			t.Errorf("%s became %+v", raw, ev)
		}
	}
}

func TestDisplayNameAndManager(t *testing.T) {
	cases := []struct {
		name, raw string
		want      bot.User
	}{
		{"global name without nick", `{"permissions":"8","user":{"id":"1","username":"bob","global_name":"Bob"}}`, bot.User{ID: "1", Name: "Bob", Manager: true}},
		{"username only, no rights", `{"permissions":"2048","user":{"id":"1","username":"bob"}}`, bot.User{ID: "1", Name: "bob"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			i := decodeInteraction(t, `{"id":"9","type":3,"member":`+c.raw+`,"data":{"custom_id":"x","component_type":2}}`)
			if got := interactionUser(i); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestMessagesBecomeEvents(t *testing.T) {
	parent := func(ch string) string { return map[string]string{"th": "gen"}[ch] }
	cases := []struct {
		name string
		m    discordgo.Message
		want *bot.Event
	}{
		{"a person in a thread", discordgo.Message{ID: "m", ChannelID: "th", Content: "hi", Author: &discordgo.User{ID: "1", Username: "ann"}},
			&bot.Event{Platform: "discord", Kind: bot.KindMessage, ID: "m", Channel: "th", Parent: "gen", Text: "hi", User: bot.User{ID: "1", Name: "ann"}}},
		{"the bot itself", discordgo.Message{ID: "m", ChannelID: "c", Content: "x", Author: &discordgo.User{ID: "100", Username: "rt"}},
			&bot.Event{Platform: "discord", Kind: bot.KindMessage, ID: "m", Channel: "c", Text: "x", User: bot.User{ID: "100", Name: "rt", Bot: true}}},
		{"a webhook", discordgo.Message{ID: "m", ChannelID: "c", Content: "x", WebhookID: "w", Author: &discordgo.User{ID: "w", Username: "Scribe"}},
			&bot.Event{Platform: "discord", Kind: bot.KindMessage, ID: "m", Channel: "c", Text: "x", User: bot.User{ID: "w", Name: "Scribe", Bot: true}}},
		{"no text", discordgo.Message{ID: "m", ChannelID: "c", Author: &discordgo.User{ID: "1"}}, nil},
		{"a system message", discordgo.Message{ID: "m", ChannelID: "c", Content: "t", Type: discordgo.MessageTypeThreadCreated, Author: &discordgo.User{ID: "1"}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := messageEvent(&c.m, "100", parent); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
