package discord

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// commandName is the one slash command; what it does is its subcommand.
const commandName = "roundtable"

// register installs /roundtable in every configured guild, or globally.
func (p *Platform) register(ctx context.Context) error {
	_, app := p.ids()
	guilds := p.cfg.Guilds
	if len(guilds) == 0 {
		guilds = []string{""}
	}
	cmds := []*discordgo.ApplicationCommand{command()}
	for _, g := range guilds {
		if _, err := p.s.ApplicationCommandBulkOverwrite(app, g, cmds, discordgo.WithContext(ctx)); err != nil {
			return wrap(fmt.Sprintf("register commands (guild %q)", g), err)
		}
	}
	p.log.Info("registered /roundtable", "guilds", len(p.cfg.Guilds))
	return nil
}

// command is /roundtable with the subcommands and options the service
// understands (bot/commands.go).
func command() *discordgo.ApplicationCommand {
	table := str("table", "The table's ID (default: the table in this thread)")
	return &discordgo.ApplicationCommand{Name: commandName, Description: "Deliberate in rounds with people and bot agents",
		Options: []*discordgo.ApplicationCommandOption{
			sub("start", "Start a table in its own thread", startOptions()...),
			sub("begin", "Start a table that waits for its people", table),
			sub("study", "Open a study the server runs live and post its cohort link",
				required(str("action", "What to do", "start")), required(str("name", "The study's name"))),
			sub("join", "Join the table", table),
			sub("leave", "Leave the table", table),
			sub("propose", "Make your proposal", required(maxLen(str("text", "Your proposal"), 4000)), table),
			sub("vote", "Cast your ballot", required(str("ballot", `Your ballot: "B", "A=5 B=2", "C > A > B" or "abstain"`)),
				maxLen(str("reason", "Why, if you like (shown when the vote closes)"), 1000), table),
			sub("status", "Show the table's status", table),
			sub("stop", "Stop the table", table),
			sub("extend", "Give the open phase more time", str("by", "How much more, e.g. 2m (default 2m)"), table),
			sub("close", "Close the open phase now", table),
			sub("export", "Get the table's event log as a file",
				str("format", "File format", "jsonl", "csv"), str("names", "keep: keep people's names", "keep"), table),
			sub("help", "How roundtable works"),
		}}
}

func startOptions() []*discordgo.ApplicationCommandOption {
	rules := make([]string, 0, len(vote.Rules()))
	for _, r := range vote.Rules() {
		rules = append(rules, string(r))
	}
	one := 1.0
	rounds := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "rounds",
		Description: "Number of rounds", MinValue: &one, MaxValue: 1000}
	seats := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "seats",
		Description: "start:full: the seats (people and bots) that start it", MinValue: &one, MaxValue: 500}
	zero := 0.0
	people := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "people",
		Description: "The fewest people it needs before it starts", MinValue: &zero, MaxValue: 500}
	return []*discordgo.ApplicationCommandOption{
		maxLen(str("topic", "What the table decides"), 1000),
		str("preset", "A configured table to start"),
		str("rule", "The voting rule", rules...),
		rounds,
		str("agents", "Bot agents to seat, comma-separated"),
		str("mode", "sealed: messages revealed at the phase's close; live: as they come", "sealed", "live"),
		str("early_stop", "When to stop before the last round", "none", "first-agreement", "consecutive-agreements"),
		maxLen(str("title", "The table's title"), 100),
		str("join", "no: do not seat yourself", "yes", "no"),
		str("message", "Message phase duration, e.g. 2m"),
		str("proposal", "Proposal phase duration, e.g. 2m"),
		str("vote", "Vote phase duration, e.g. 2m"),
		str("secret", "Secret ballot; research: organiser's export keeps voter-N labels across rounds", "yes", "research", "no"),
		str("start", "When it starts: organiser (/roundtable begin), full (seats taken) or at (start_at)", "organiser", "full", "at"),
		seats,
		str("start_at", "start:at: when, e.g. 14:30, 2026-11-22T14:30 or a delay such as 10m"),
		people,
		str("facilitator_votes", "yes: the Facilitator votes too (default no)", "yes", "no"),
	}
}

func sub(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
}

// str is a string option, limited to choices when there are any.
func str(name, desc string, choices ...string) *discordgo.ApplicationCommandOption {
	o := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name, Description: desc}
	for _, c := range choices {
		o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: c, Value: c})
	}
	return o
}

func required(o *discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	o.Required = true
	return o
}

func maxLen(o *discordgo.ApplicationCommandOption, n int) *discordgo.ApplicationCommandOption {
	o.MaxLength = n
	return o
}
