package slack

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/roundtable-ai/roundtable/bot"
)

// Normalisation: every Slack payload, from Socket Mode or HTTP, becomes a
// bot.Event here. User names and rights are filled in later (users.info).

// origin is an event's Event.Native: where replies to it go.
type origin struct {
	TriggerID string // opens a modal within 3 s of the user's act
	Channel   string // the Slack channel
	ThreadTS  string // the thread, if the act happened in one
	// ResponseURL answers the act privately even where the app may not
	// post (commands and clicks have one).
	ResponseURL string
	// Expires is when TriggerID stops opening modals (3 s after the act).
	Expires time.Time
	// ack acknowledges a view_submission, whose ack waits for the bot's
	// answer (see acker); nil for other events, acknowledged on receipt.
	ack *acker
}

// triggerLife is how long a trigger_id opens modals after the act.
const triggerLife = 3 * time.Second

// triggerExpiry is when the trigger of an act received now expires.
func triggerExpiry() time.Time { return time.Now().Add(triggerLife) }

// formMeta is a modal's private_metadata: the view_submission payload
// names no channel, so the modal carries the one it was opened from.
type formMeta struct {
	Channel string `json:"c"`
}

// commandEvent converts a slash command. Slack runs slash commands only
// outside threads, so its channel is a channel.
func commandEvent(c slack.SlashCommand) *bot.Event {
	name, opts := parseCommand(unescape(c.Text))
	return &bot.Event{Kind: bot.KindCommand, ID: "cmd:" + c.TriggerID, User: bot.User{ID: c.UserID, Name: c.UserName},
		Channel: c.ChannelID, Command: name, Options: opts,
		Native: origin{TriggerID: c.TriggerID, Channel: c.ChannelID, ResponseURL: c.ResponseURL, Expires: triggerExpiry()}}
}

// interactionEvent converts a button click, a select or a submitted modal;
// nil for other interactions.
func interactionEvent(cb slack.InteractionCallback) *bot.Event {
	switch cb.Type {
	case slack.InteractionTypeBlockActions:
		return actionEvent(cb)
	case slack.InteractionTypeViewSubmission:
		return submitEvent(cb)
	}
	return nil
}

func actionEvent(cb slack.InteractionCallback) *bot.Event {
	if len(cb.ActionCallback.BlockActions) == 0 {
		return nil
	}
	a := cb.ActionCallback.BlockActions[0]
	o := origin{TriggerID: cb.TriggerID, Channel: cb.Container.ChannelID, ThreadTS: cb.Container.ThreadTs,
		ResponseURL: cb.ResponseURL, Expires: triggerExpiry()}
	if o.Channel == "" {
		o.Channel = cb.Channel.ID
	}
	if o.ThreadTS == "" {
		o.ThreadTS = cb.Message.ThreadTimestamp
	}
	ev := &bot.Event{Kind: bot.KindAction, ID: "act:" + cb.TriggerID, User: interactionUser(cb),
		Action: a.ActionID, Values: actionValues(a), Native: o}
	place(ev, o)
	return ev
}

// actionValues are a select's chosen values; a button has none.
func actionValues(a *slack.BlockAction) []string {
	var out []string
	switch {
	case len(a.SelectedOptions) > 0:
		for _, o := range a.SelectedOptions {
			out = append(out, o.Value)
		}
	case a.SelectedOption.Value != "":
		out = []string{a.SelectedOption.Value}
	}
	return out
}

func submitEvent(cb slack.InteractionCallback) *bot.Event {
	var meta formMeta
	_ = json.Unmarshal([]byte(cb.View.PrivateMetadata), &meta) // a foreign modal has none: no channel
	r := parseRef(meta.Channel)
	o := origin{TriggerID: cb.TriggerID, Channel: r.Channel, ThreadTS: r.TS, Expires: triggerExpiry()}
	ev := &bot.Event{Kind: bot.KindSubmit, ID: "view:" + cb.View.ID + ":" + cb.TriggerID, User: interactionUser(cb),
		Action: cb.View.CallbackID, Fields: map[string]string{}, Native: o}
	if cb.View.State != nil {
		for blockID, actions := range cb.View.State.Values {
			for _, a := range actions {
				ev.Fields[blockID] = fieldValue(a)
			}
		}
	}
	place(ev, o)
	return ev
}

// fieldValue is an input's value: typed text or the chosen option.
func fieldValue(a slack.BlockAction) string {
	if a.Value != "" {
		return a.Value
	}
	return a.SelectedOption.Value
}

func interactionUser(cb slack.InteractionCallback) bot.User {
	name := cb.User.Name
	if name == "" {
		name = cb.User.Profile.DisplayName
	}
	return bot.User{ID: cb.User.ID, Name: name}
}

// place sets an event's Channel (a thread channel ID inside a thread) and
// Parent.
func place(ev *bot.Event, o origin) {
	ev.Channel = ref{Channel: o.Channel, TS: o.ThreadTS}.String()
	if o.ThreadTS != "" {
		ev.Parent = o.Channel
	}
}

// messageEvent converts a message posted in a channel or thread; nil for
// edits, deletions, joins and other subtypes that are not someone speaking.
func messageEvent(m *slackevents.MessageEvent, self identity) *bot.Event {
	switch m.SubType {
	case "", "thread_broadcast", "file_share", "me_message", "bot_message":
	default:
		return nil
	}
	o := origin{Channel: m.Channel}
	if m.ThreadTimeStamp != "" && m.ThreadTimeStamp != m.TimeStamp {
		o.ThreadTS = m.ThreadTimeStamp
	}
	isBot := m.BotID != "" || m.SubType == "bot_message" || (self.UserID != "" && m.User == self.UserID)
	user := bot.User{ID: m.User, Bot: isBot}
	if user.ID == "" {
		user.ID, user.Name = m.BotID, m.Username
	}
	ev := &bot.Event{Kind: bot.KindMessage, ID: "msg:" + ref{Channel: m.Channel, TS: m.TimeStamp}.String(),
		User: user, Text: unescape(m.Text), Native: o}
	place(ev, o)
	return ev
}

// unescape undoes Slack's escaping of &, < and > in incoming text.
func unescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}
