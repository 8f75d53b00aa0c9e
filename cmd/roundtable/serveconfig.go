package main

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/adapters/slack"
	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// TableSettings are the settings of a live table that both the [bot]
// defaults and a [[table]] preset give.
type TableSettings struct {
	Rule      string   `toml:"rule"`
	Tie       string   `toml:"tie"`
	Mode      string   `toml:"mode"`
	EarlyStop string   `toml:"early_stop"`
	Rounds    int      `toml:"rounds"`
	Quorum    int      `toml:"quorum"` // ballots a vote needs to decide; 0: none
	Message   Duration `toml:"message"`
	Proposal  Duration `toml:"proposal"`
	Vote      Duration `toml:"vote"`
	Agents    []string `toml:"agents"`
	// SecretBallot hides who voted what from everyone, the organiser
	// included; SecretResearch lets the organiser's pseudonymised export
	// (and only it) keep each person's ballots under one voter pseudonym
	// across rounds, which the table announces when it starts.
	SecretBallot   bool `toml:"secret_ballot"`
	SecretResearch bool `toml:"secret_research"`
	AuditSettings
	StartSettings
}

// StartSettings say when a live table starts and whom it needs (the
// start options of bot/waiting.go): the organiser starts it (start =
// "organiser", the default), or it starts when its seats are taken
// ("full", seats) or at a time ("at", start_at); people is the fewest
// people it needs. FacilitatorVotes lets the Facilitator vote.
type StartSettings struct {
	Start            string `toml:"start"`
	Seats            int    `toml:"seats"`
	StartAt          string `toml:"start_at"`
	People           int    `toml:"people"`
	FacilitatorVotes *bool  `toml:"facilitator_votes"`
}

// options are the start options s sets.
func (s StartSettings) options() map[string]string {
	out := map[string]string{}
	set := func(k, v string) {
		if v != "" {
			out[k] = v
		}
	}
	set("start", s.Start)
	set("start_at", s.StartAt)
	if s.Seats != 0 {
		out["seats"] = strconv.Itoa(s.Seats)
	}
	if s.People != 0 {
		out["people"] = strconv.Itoa(s.People)
	}
	if s.FacilitatorVotes != nil {
		out["facilitator_votes"] = map[bool]string{true: "yes", false: "no"}[*s.FacilitatorVotes]
	}
	return out
}

// check refuses start settings the bot would refuse, naming the key.
func (s StartSettings) check(key string, c roundtable.Config) error {
	if err := bot.CheckStart(c, s.options(), time.Now()); err != nil {
		return fmt.Errorf("%s.%s", key, roundtable.ErrorMessage(err))
	}
	return nil
}

// BotConfig holds the defaults of live tables started without a preset.
type BotConfig struct {
	TableSettings
	AgentTimeout Duration `toml:"agent_timeout"`
	AuditModel
}

// TableConfig is a table preset: started with /roundtable start preset:NAME.
// Settings it leaves out come from [bot].
type TableConfig struct {
	Name   string `toml:"name"`
	Title  string `toml:"title"`
	Task   string `toml:"task"`
	Topic  string `toml:"topic"`
	Preset string `toml:"preset"`
	// ItemDir holds a panel's items' documents, one file per item
	// (NAME.txt or NAME.md), shown to everyone before they speak; its
	// files name the items unless items does.
	ItemDir string `toml:"item_dir"`
	TableSettings
	ProtocolSettings
}

// PolicyConfig says who may start and stop tables on a platform.
type PolicyConfig struct {
	Roles          []string `toml:"roles"`
	ManageChannels bool     `toml:"manage_channels"`
	Users          []string `toml:"users"`
}

// WebConfig is the built-in web channel.
type WebConfig struct {
	// Enabled is "auto" (on when neither Discord nor Slack is configured),
	// "on" or "off".
	Enabled string `toml:"enabled"`
	Addr    string `toml:"addr"`
	// OpenLobby lets anyone who opens the web channel create tables;
	// otherwise only the host link does.
	OpenLobby bool `toml:"open_lobby"`
	// AdvertiseURL is where the other processes of a cluster (the etcd
	// store) reach this one's web channel, to send on the requests for
	// the rooms it serves; the URL it listens at when empty.
	AdvertiseURL string `toml:"advertise_url"`
	// PublicURL is the address people open behind a reverse proxy with
	// TLS ("https://class.example.org/"): links are built from it.
	PublicURL string `toml:"public_url"`
}

// DiscordConfig is the Discord bot.
type DiscordConfig struct {
	TokenEnv string   `toml:"token_env"`
	APIURL   string   `toml:"api_url"`
	Guilds   []string `toml:"guilds"`
	// Shards is the range of the bot's shards this process runs:
	// "0-3/16", "5/16", "auto", or "" (unsharded); serve --shards
	// overrides it.
	Shards string       `toml:"shards"`
	Policy PolicyConfig `toml:"policy"`
}

// SlackConfig is the Slack app.
type SlackConfig struct {
	BotTokenEnv      string       `toml:"bot_token_env"`
	AppTokenEnv      string       `toml:"app_token_env"`
	SigningSecretEnv string       `toml:"signing_secret_env"`
	Mode             string       `toml:"mode"`
	APIURL           string       `toml:"api_url"`
	HTTPAddr         string       `toml:"http_addr"`
	PostInterval     Duration     `toml:"post_interval"`
	HistoryInterval  Duration     `toml:"history_interval"`
	Policy           PolicyConfig `toml:"policy"`
}

func (d *DiscordConfig) applyDefaults() {
	if d.TokenEnv == "" {
		d.TokenEnv = "DISCORD_TOKEN"
	}
	if d.APIURL == "" {
		d.APIURL = "https://discord.com/"
	}
}

func (s *SlackConfig) applyDefaults() {
	if s.BotTokenEnv == "" {
		s.BotTokenEnv = "SLACK_BOT_TOKEN"
	}
	if s.AppTokenEnv == "" {
		s.AppTokenEnv = "SLACK_APP_TOKEN"
	}
	if s.SigningSecretEnv == "" {
		s.SigningSecretEnv = "SLACK_SIGNING_SECRET"
	}
	if s.Mode == "" {
		s.Mode = "socket"
	}
	if s.APIURL == "" {
		s.APIURL = "https://slack.com/api/"
	}
	if s.HTTPAddr == "" {
		s.HTTPAddr = "127.0.0.1:3000"
	}
	if s.PostInterval == 0 {
		s.PostInterval = Duration(time.Second)
	}
	if s.HistoryInterval == 0 {
		s.HistoryInterval = Duration(slack.DefaultHistoryInterval)
	}
}

// webOn reports whether serve starts the web channel.
func (c Config) webOn() bool {
	switch c.Web.Enabled {
	case "on":
		return true
	case "off":
		return false
	}
	return c.Discord == nil && c.Slack == nil
}

func (c Config) validateServe() error {
	if _, err := c.Bot.tableConfig("bot"); err != nil {
		return err
	}
	names := map[string]bool{}
	for i, t := range c.Tables {
		key := fmt.Sprintf("table[%d]", i)
		if t.Name == "" || names[t.Name] {
			return fmt.Errorf("%s.name: is empty or used twice", key)
		}
		names[t.Name] = true
		if _, err := t.config(c.Bot, key); err != nil {
			return err
		}
	}
	switch c.Web.Enabled {
	case "auto", "on", "off":
	default:
		return fmt.Errorf("web.enabled: %q is not auto, on or off", c.Web.Enabled)
	}
	if err := checkAddr(c.Web.Addr); err != nil {
		return fmt.Errorf("web.addr: %w", err)
	}
	if c.Web.PublicURL != "" {
		if _, err := web.ParsePublicURL(c.Web.PublicURL); err != nil {
			return fmt.Errorf("web.public_url: %w", err)
		}
	}
	if c.Slack != nil && c.Slack.Mode != "socket" && c.Slack.Mode != "http" {
		return fmt.Errorf("slack.mode: %q is not socket or http", c.Slack.Mode)
	}
	if c.Discord != nil {
		if _, err := discord.ParseShards(c.Discord.Shards); err != nil {
			return fmt.Errorf("discord.shards: %w", err)
		}
	}
	return nil
}

// tableConfig turns the [bot] defaults into a table config.
func (b BotConfig) tableConfig(key string) (roundtable.Config, error) {
	return TableConfig{TableSettings: b.TableSettings}.config(b, key)
}

// config turns a preset into a table config; unset keys come from [bot].
func (t TableConfig) config(def BotConfig, key string) (roundtable.Config, error) {
	pick := func(v, d string) string {
		if v != "" {
			return v
		}
		return d
	}
	rule, err := vote.ParseRule(pick(t.Rule, def.Rule))
	if err != nil {
		return roundtable.Config{}, fmt.Errorf("%s.rule: %w", key, err)
	}
	dur := func(v, d Duration) time.Duration { return time.Duration(pick2(v, d)) }
	c := roundtable.Config{
		Title: t.Title, Rule: rule, Tie: vote.TiePolicy(pick(t.Tie, def.Tie)),
		Task:      roundtable.TaskSpec{Kind: pick(t.Task, "text"), Topic: t.Topic},
		Mode:      roundtable.Mode(pick(t.Mode, def.Mode)),
		EarlyStop: roundtable.EarlyStop(pick(t.EarlyStop, def.EarlyStop)),
		Rounds:    max(t.Rounds, 0),
		Quorum:    t.Quorum,
		Durations: roundtable.Durations{Message: dur(t.Message, def.Message), Proposal: dur(t.Proposal, def.Proposal), Vote: dur(t.Vote, def.Vote)},
		Secret:    roundtable.Secrecy{Ballots: t.SecretBallot || def.SecretBallot, Research: t.SecretResearch || def.SecretResearch},
	}
	if c.Secret.Research && !c.Secret.Ballots {
		return c, fmt.Errorf("%s.secret_research: keeps ballots for research only at a secret-ballot table: set secret_ballot = true", key)
	}
	if c.Rounds == 0 {
		c.Rounds = def.Rounds
	}
	if c.Quorum == 0 {
		c.Quorum = def.Quorum
	}
	if t.Preset != "" {
		c.Task.Params = map[string]string{"preset": t.Preset}
	}
	ps := t.ProtocolSettings.settings(key + ".protocol")
	if t.ItemDir != "" {
		if ps, err = protocol.ReadDocs(ps, t.ItemDir); err != nil {
			return c, err
		}
	}
	if c.Protocol, err = protocol.Build(ps); err != nil {
		return c, err
	}
	for it, doc := range ps.Docs {
		if c.Task.Params == nil {
			c.Task.Params = map[string]string{}
		}
		c.Task.Params[roundtable.DocParam+it] = doc
	}
	if err := protocol.CheckLive(t.ProtocolSettings.settings(key + ".protocol")); err != nil {
		return c, err
	}
	if c.Protocol != nil && c.Task.Topic == "" {
		c.Task.Topic = t.Question
	}
	c.Audit = t.AuditSettings.spec(def.AuditSettings)
	c = c.WithDefaults()
	if err := c.ValidateNew(); err != nil {
		return c, fmt.Errorf("%s: %s", key, strings.TrimPrefix(err.Error(), "invalid: "))
	}
	return c, t.StartSettings.check(key, c)
}

func pick2(v, d Duration) Duration {
	if v != 0 {
		return v
	}
	return d
}

// policy converts a [*.policy] section.
func (p PolicyConfig) policy() bot.Policy {
	return bot.Policy{Roles: p.Roles, Manager: p.ManageChannels, Users: p.Users}
}

// checkAddr refuses a listen address that is not HOST:PORT before the
// server tries it.
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not HOST:PORT such as 127.0.0.1:8080 (%v)", addr, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%q: the port must be a number from 0 to 65535", addr)
	}
	return nil
}
