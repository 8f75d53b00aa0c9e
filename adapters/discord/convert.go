package discord

import (
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/bot"
)

// platformName prefixes the bot's bindings and user IDs.
const platformName = "discord"

// managePerms are the permissions that make a member a manager: they may
// manage the channel (or everything).
const managePerms = discordgo.PermissionManageChannels | discordgo.PermissionAdministrator

// interactionEvent normalises an interaction: a /roundtable command, a
// component (button or select) or a modal submit. It returns nil for
// interactions the bot does not handle (pings, autocomplete, other
// commands). parent tells the parent of a known thread.
func interactionEvent(i *discordgo.Interaction, parent func(string) string) *bot.Event {
	ev := &bot.Event{Platform: platformName, ID: i.ID, User: interactionUser(i),
		Channel: i.ChannelID, Parent: parent(i.ChannelID), Space: i.GuildID}
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		data := i.ApplicationCommandData()
		if data.Name != commandName {
			return nil
		}
		ev.Kind = bot.KindCommand
		ev.Command, ev.Options = subcommand(data.Options)
	case discordgo.InteractionMessageComponent:
		data := i.MessageComponentData()
		ev.Kind, ev.Action, ev.Values = bot.KindAction, unmarked(data.CustomID), data.Values
	case discordgo.InteractionModalSubmit:
		data := i.ModalSubmitData()
		ev.Kind, ev.Action, ev.Fields = bot.KindSubmit, data.CustomID, formFields(data.Components)
	default:
		return nil
	}
	return ev
}

// subcommand returns the name and options of the subcommand in opts.
// A command sent without a subcommand is "" (the service shows help).
func subcommand(opts []*discordgo.ApplicationCommandInteractionDataOption) (string, map[string]string) {
	for _, o := range opts {
		if o.Type == discordgo.ApplicationCommandOptionSubCommand {
			return o.Name, optionValues(o.Options)
		}
	}
	return "", optionValues(opts)
}

// optionValues renders options as the strings the service parses.
func optionValues(opts []*discordgo.ApplicationCommandInteractionDataOption) map[string]string {
	out := map[string]string{}
	for _, o := range opts {
		switch v := o.Value.(type) {
		case string:
			out[o.Name] = v
		case float64:
			out[o.Name] = strconv.FormatFloat(v, 'f', -1, 64)
		case bool:
			out[o.Name] = strconv.FormatBool(v)
		}
	}
	return out
}

// formFields collects the values of a modal's text inputs by custom ID.
func formFields(comps []discordgo.MessageComponent) map[string]string {
	out := map[string]string{}
	for _, c := range comps {
		switch c := c.(type) {
		case *discordgo.ActionsRow:
			for k, v := range formFields(c.Components) {
				out[k] = v
			}
		case discordgo.ActionsRow:
			for k, v := range formFields(c.Components) {
				out[k] = v
			}
		case *discordgo.TextInput:
			out[c.CustomID] = c.Value
		case discordgo.TextInput:
			out[c.CustomID] = c.Value
		}
	}
	return out
}

// interactionUser is the member (in a guild) or user (in a DM) who acted.
func interactionUser(i *discordgo.Interaction) bot.User {
	if m := i.Member; m != nil {
		u := member(m.User, m)
		u.Manager = m.Permissions&managePerms != 0
		return u
	}
	return member(i.User, nil)
}

// member builds a bot.User from a user and, in a guild, their member
// record: the display name is the nick, else the global name, else the
// username.
func member(u *discordgo.User, m *discordgo.Member) bot.User {
	var out bot.User
	if u != nil {
		out = bot.User{ID: u.ID, Name: u.Username, Bot: u.Bot}
		if u.GlobalName != "" {
			out.Name = u.GlobalName
		}
	}
	if m != nil {
		if m.Nick != "" {
			out.Name = m.Nick
		}
		out.Roles = append([]string(nil), m.Roles...)
	}
	return out
}

// messageEvent normalises a message. It returns nil for messages without
// text and for system messages (thread created, pins, joins). Messages by
// bots, by webhooks (agents) and by the bot itself are marked User.Bot, so
// the service ignores them.
func messageEvent(m *discordgo.Message, self string, parent func(string) string) *bot.Event {
	if m.Content == "" || (m.Type != discordgo.MessageTypeDefault && m.Type != discordgo.MessageTypeReply) {
		return nil
	}
	u := member(m.Author, m.Member)
	if m.WebhookID != "" || (self != "" && u.ID == self) {
		u.Bot = true
	}
	if m.WebhookID != "" && u.ID == "" {
		u.ID = m.WebhookID
	}
	return &bot.Event{Platform: platformName, Kind: bot.KindMessage, ID: m.ID, User: u,
		Channel: m.ChannelID, Parent: parent(m.ChannelID), Space: m.GuildID, Text: m.Content}
}
