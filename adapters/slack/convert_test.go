package slack

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

func TestParseCommand(t *testing.T) {
	cases := []struct {
		name, text, command string
		opts                map[string]string
	}{
		{"bare topic", "start Where do we eat?", "start", map[string]string{"topic": "Where do we eat?"}},
		{"quoted topic", `start topic:"Where do we eat?" rounds:2`, "start", map[string]string{"topic": "Where do we eat?", "rounds": "2"}},
		{"unquoted free text runs on", "start topic:Where do we eat? rule:borda", "start", map[string]string{"topic": "Where do we eat?", "rule": "borda"}},
		{"options then bare topic", "start rounds:2 Lunch: where?", "start", map[string]string{"rounds": "2", "topic": "Lunch: where?"}},
		{"empty value kept", `start topic:x agents:""`, "start", map[string]string{"topic": "x", "agents": ""}},
		{"curly quotes", "start topic:“Pizza or sushi”", "start", map[string]string{"topic": "Pizza or sushi"}},
		{"escaped quote", `propose text:"the \"best\" one"`, "propose", map[string]string{"text": `the "best" one`}},
		{"proposal text", "propose Pizza", "propose", map[string]string{"text": "Pizza"}},
		{"ballot with pairs", "vote A=5 B=2", "vote", map[string]string{"ballot": "A=5 B=2"}},
		{"ballot with colons is not options", "vote a:5 b:2", "vote", map[string]string{"ballot": "a:5 b:2"}},
		{"quoted bare word is no option", `start "topic:odd"`, "start", map[string]string{"topic": "topic:odd"}},
		{"table by bare ID", "status t0123456789", "status", map[string]string{"table": "t0123456789"}},
		{"command case", "HELP", "help", map[string]string{}},
		{"empty", "  ", "", map[string]string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd, opts := parseCommand(c.text)
			if cmd != c.command || !reflect.DeepEqual(opts, c.opts) {
				t.Errorf("parseCommand(%q) = %q %v, want %q %v", c.text, cmd, opts, c.command, c.opts)
			}
		})
	}
}

func TestCommandEventUnescapes(t *testing.T) {
	ev := commandEvent(slack.SlashCommand{Text: "propose a &lt; b &amp;&amp; c", TriggerID: "tr1", ChannelID: "C1", UserID: "U1"})
	if ev.Options["text"] != "a < b && c" || ev.ID != "cmd:tr1" || ev.Channel != "C1" {
		t.Errorf("event %+v", ev)
	}
}

func TestMessageEvent(t *testing.T) {
	self := identity{UserID: "UBOT", BotID: "BBOT"}
	cases := []struct {
		name    string
		m       slackevents.MessageEvent
		nilEv   bool
		bot     bool
		channel string
		parent  string
	}{
		{"person in thread", slackevents.MessageEvent{User: "U1", Channel: "C1", TimeStamp: "2.0", ThreadTimeStamp: "1.0"}, false, false, "C1/1.0", "C1"},
		{"person in channel", slackevents.MessageEvent{User: "U1", Channel: "C1", TimeStamp: "2.0"}, false, false, "C1", ""},
		{"thread root is the channel", slackevents.MessageEvent{User: "U1", Channel: "C1", TimeStamp: "1.0", ThreadTimeStamp: "1.0"}, false, false, "C1", ""},
		{"app message", slackevents.MessageEvent{User: "UBOT", BotID: "BBOT", Channel: "C1", TimeStamp: "2.0"}, false, true, "C1", ""},
		{"persona message", slackevents.MessageEvent{SubType: "bot_message", BotID: "B2", Username: "Scribe", Channel: "C1", TimeStamp: "2.0"}, false, true, "C1", ""},
		{"own user without bot_id", slackevents.MessageEvent{User: "UBOT", Channel: "C1", TimeStamp: "2.0"}, false, true, "C1", ""},
		{"edit ignored", slackevents.MessageEvent{SubType: "message_changed", Channel: "C1"}, true, false, "", ""},
		{"join ignored", slackevents.MessageEvent{SubType: "channel_join", Channel: "C1"}, true, false, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := messageEvent(&c.m, self)
			if c.nilEv {
				if ev != nil {
					t.Fatalf("got %+v, want no event", ev)
				}
				return
			}
			if ev.User.Bot != c.bot || ev.Channel != c.channel || ev.Parent != c.parent {
				t.Errorf("got bot=%v channel=%q parent=%q", ev.User.Bot, ev.Channel, ev.Parent)
			}
			if ev.ID != "msg:C1/"+c.m.TimeStamp {
				t.Errorf("ID %q is not stable per message", ev.ID)
			}
		})
	}
}

// payload decodes an interaction the way slack-go does on the wire.
func payload(t *testing.T, js string) slack.InteractionCallback {
	t.Helper()
	var cb slack.InteractionCallback
	if err := json.Unmarshal([]byte(js), &cb); err != nil {
		t.Fatal(err)
	}
	return cb
}

func TestActionEvent(t *testing.T) {
	cb := payload(t, `{"type":"block_actions","trigger_id":"tr9","user":{"id":"U1","name":"bob"},
		"container":{"type":"message","message_ts":"5.0","channel_id":"C1","thread_ts":"1.0"},
		"actions":[{"type":"multi_static_select","action_id":"rt:t1:1:choose","block_id":"actions-0",
			"selected_options":[{"value":"A"},{"value":"C"}]}]}`)
	ev := interactionEvent(cb)
	if ev == nil || ev.Action != "rt:t1:1:choose" || !reflect.DeepEqual(ev.Values, []string{"A", "C"}) {
		t.Fatalf("event %+v", ev)
	}
	if ev.Channel != "C1/1.0" || ev.Parent != "C1" || ev.ID != "act:tr9" {
		t.Errorf("event %+v", ev)
	}
	if o := ev.Native.(origin); o.TriggerID != "tr9" || o.ThreadTS != "1.0" {
		t.Errorf("origin %+v", o)
	}
}

func TestSubmitEvent(t *testing.T) {
	cb := payload(t, `{"type":"view_submission","trigger_id":"tr3","user":{"id":"U1"},
		"view":{"id":"V1","callback_id":"rt:t1:1:ballot","private_metadata":"{\"c\":\"C1/1.0\"}",
		"state":{"values":{"rank1":{"rank1":{"type":"static_select","selected_option":{"value":"B"}}},
			"rank2":{"rank2":{"type":"static_select","selected_option":null}},
			"ballot":{"ballot":{"type":"plain_text_input","value":"A > B"}}}}}}`)
	ev := interactionEvent(cb)
	want := map[string]string{"rank1": "B", "rank2": "", "ballot": "A > B"}
	if ev == nil || ev.Action != "rt:t1:1:ballot" || !reflect.DeepEqual(ev.Fields, want) {
		t.Fatalf("event %+v", ev)
	}
	if ev.Channel != "C1/1.0" || ev.Parent != "C1" {
		t.Errorf("channel %q parent %q", ev.Channel, ev.Parent)
	}
}

func TestOtherInteractionsIgnored(t *testing.T) {
	if ev := interactionEvent(payload(t, `{"type":"view_closed"}`)); ev != nil {
		t.Errorf("got %+v", ev)
	}
}
