package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/adapters/slack"
	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/task"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

func (a *App) serveCmd() *cobra.Command {
	var webAddr, shards string
	var studies []string
	cmd := &cobra.Command{
		Use:   "serve [--config FILE] [--web-addr ADDR] [--study FILE] [--shards FIRST-LAST/COUNT]",
		Short: "Run live tables in Discord, Slack and/or the built-in web channel",
		Long: `Connects to the platforms configured in [discord] and [slack]; with neither,
starts the built-in web channel on 127.0.0.1:8080 (--web-addr; port 0 picks a
free port) and prints its URL. Open tables resume where they were: every
accepted action is in the database before it is acknowledged. --shards runs a
range of the Discord bot's shards (0-3/16, or auto for all of them), as
[discord] shards does.

--study FILE runs a study live on the web channel: it prints one cohort link
and a short code for the class, and the host's study dashboard. With several
--study files, the host opens one with /roundtable study start NAME in
Discord or Slack (which posts the link there). Each person
who opens the link is seated at a table of a condition (balanced blocked
assignment from the study's seed, kept in the database); a wave's tables
start together once all are full, or when the host starts the wave.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := LoadConfig(a.configPath)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("web-addr") {
				if err := checkAddr(webAddr); err != nil {
					return usagef("--web-addr: %v", err)
				}
				cfg.Web.Addr = webAddr
				if cfg.Web.Enabled == "auto" {
					cfg.Web.Enabled = "on"
				}
			}
			if cmd.Flags().Changed("shards") {
				if cfg.Discord == nil {
					return usagef("--shards: the config has no [discord] bot to shard")
				}
				if _, err := discord.ParseShards(shards); err != nil {
					return usagef("--shards: %v", err)
				}
				cfg.Discord.Shards = shards
			}
			return a.serve(cmd.Context(), cfg, studies)
		},
	}
	cmd.Flags().StringVar(&webAddr, "web-addr", "", "address of the web channel (default from [web], 127.0.0.1:8080)")
	cmd.Flags().StringArrayVar(&studies, "study", nil, "a study file to run live: people are seated at its conditions' tables (repeatable)")
	cmd.Flags().StringVar(&shards, "shards", "", "the Discord shards this process runs: FIRST-LAST/COUNT, SHARD/COUNT or auto (default from [discord] shards)")
	return cmd
}

func (a *App) serve(ctx context.Context, cfg Config, studyPaths []string) error {
	db, err := a.openStore(ctx, cfg, "", false)
	if err != nil {
		return err
	}
	defer db.Close()
	if file, ok := db.(*store.DB); ok {
		file.ServeBackups(ctx, a.logger())
	}
	cl, err := a.joinCluster(ctx, cfg, db)
	if err != nil {
		return err
	}
	defer func() {
		if err := cl.leave(context.WithoutCancel(ctx)); err != nil {
			a.logger().Error("leave the cluster", "err", err)
		}
	}()
	m, err := a.newMinds(cfg, llmFlags{}, mindOptions{seats: cfg.maxTableAgents(), live: true})
	if err != nil {
		return err
	}
	a.minds = m
	m.logBrokenEndpoints(ctx)
	botCfg, err := a.botConfig(cfg, m)
	if err != nil {
		return fmt.Errorf("%s%w", a.configFile(), err)
	}
	var shelf *studyShelf
	if len(studyPaths) > 0 {
		file, ok := db.(*store.DB)
		if !ok {
			return usagef("--study: a live study keeps its results beside a database file; it needs [store] backend = \"bbolt\"")
		}
		if shelf, err = loadStudies(cfg, studyPaths, &botCfg); err != nil {
			return err
		}
		shelf.db = file
	}
	platforms, webp, err := a.platforms(cfg, botCfg, db, cl)
	if err != nil {
		return err
	}
	deps := bot.Deps{Store: db, Clock: bot.SystemClock{}, Logger: a.logger(), Task: task.Live, Agent: m.agent, Audit: a.auditing(ctx, cfg, db), Seatable: seatable}
	if shelf != nil {
		shelf.web, shelf.out = webp, func(f string, args ...any) { fmt.Fprintf(a.Stdout, f, args...) }
		deps.Studies = shelf
		webp.SetStudies(shelf)
		if len(shelf.list) == 1 {
			if _, err := shelf.OpenStudy(ctx, shelf.list[0].study.Name); err != nil {
				return err
			}
		}
	}
	log := a.logger()
	deps.Owners = cl.owners()
	svc := bot.New(botCfg, deps, platforms...)
	actx, stopAnnounce := context.WithCancel(ctx)
	defer stopAnnounce()
	if webp != nil {
		go a.announce(actx, webp, cl, cfg.Web.AdvertiseURL)
	}
	for _, p := range platforms {
		log.Info("serving", "platform", p.Name(), "store", storeName(db))
	}
	err = svc.Run(ctx)
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return nil
	}
	return err
}

// announce prints the web channel's URL once it listens and, in a
// cluster, tells the other processes where to send the requests for the
// rooms this one serves (advertise, or the URL it listens at).
func (a *App) announce(ctx context.Context, p *web.Platform, cl *cluster, advertise string) {
	select {
	case <-p.Ready():
		at := p.URL()
		if pub := p.PublicURL(); pub != at {
			at = fmt.Sprintf("%s (listening on %s)", pub, at)
		}
		fmt.Fprintf(a.Stdout, "roundtable: web channel at %s\nOpen %s to start and manage tables (this link is yours: it carries the host key).\n", at, p.HostURL())
		if link, code := p.CohortURL(); link != "" {
			fmt.Fprintf(a.Stdout, "Study: everyone opens %s (or types the code %s at %sc); your dashboard: %s\n", link, code, p.PublicURL(), p.StudyURL())
		}
		if advertise == "" {
			advertise = p.URL()
		}
		if err := cl.advertise(ctx, web.Name, advertise); err != nil {
			a.logger().Error("advertise the web channel to the cluster", "err", err)
		}
	case <-ctx.Done():
	}
}

// botConfig turns [bot], [[agent]] and [[table]] into the service's config.
func (a *App) botConfig(cfg Config, m *minds) (bot.Config, error) {
	def, err := cfg.Bot.tableConfig("bot")
	if err != nil {
		return bot.Config{}, err
	}
	bc := bot.Config{Defaults: def, DefaultAgents: cfg.Bot.Agents, AgentTimeout: time.Duration(cfg.Bot.AgentTimeout),
		Agents:  map[string]roundtable.Participant{"Facilitator": {ID: "agent:facilitator", Name: "Facilitator", Kind: roundtable.Bot, Agent: facilitator.Kind}},
		Presets: map[string]bot.Preset{}, Policies: map[string]bot.Policy{}, Options: cfg.Bot.StartSettings.options()}
	for _, p := range cfg.Agents {
		bc.Agents[p.Name] = presetSeat(p)
	}
	addLiveTables(&bc, m != nil && m.eps.Len() > 0)
	for i, name := range cfg.Bot.Agents {
		if _, ok := bc.Agents[name]; !ok {
			return bc, fmt.Errorf("bot.agents[%d]: no agent is named %q (Facilitator or an [[agent]] name)", i, name)
		}
	}
	for i, t := range cfg.Tables {
		key := fmt.Sprintf("table[%d]", i)
		tc, err := t.config(cfg.Bot, key)
		if err != nil {
			return bc, err
		}
		agents := t.Agents
		if agents == nil {
			agents = cfg.Bot.Agents
		}
		for j, name := range agents {
			if _, ok := bc.Agents[name]; !ok {
				return bc, fmt.Errorf("%s.agents[%d]: no agent is named %q", key, j, name)
			}
			if err := seatable(bc.Agents[name], tc); err != nil {
				return bc, fmt.Errorf("%s.agents[%d]: %w", key, j, err)
			}
		}
		bc.Presets[t.Name] = bot.Preset{Name: t.Name, Config: tc, Agents: agents, Options: t.StartSettings.options()}
	}
	if cfg.Discord != nil {
		bc.Policies["discord"] = cfg.Discord.Policy.policy()
	}
	if cfg.Slack != nil {
		bc.Policies["slack"] = cfg.Slack.Policy.policy()
	}
	return bc, nil
}

// platforms builds the configured adapters. Tokens come from the
// environment variables the config names.
func (a *App) platforms(cfg Config, bc bot.Config, db store.Backend, cl *cluster) ([]bot.Platform, *web.Platform, error) {
	var out []bot.Platform
	log := a.logger()
	if d := cfg.Discord; d != nil {
		token, err := a.secret("discord.token_env", d.TokenEnv)
		if err != nil {
			return nil, nil, err
		}
		shards, err := discord.ParseShards(d.Shards)
		if err != nil {
			return nil, nil, fmt.Errorf("discord.shards: %w", err)
		}
		out = append(out, discord.New(discord.Config{Token: token, APIURL: d.APIURL, Guilds: d.Guilds, Shards: shards, Turn: cl.turn()}, log))
	}
	if s := cfg.Slack; s != nil {
		sc := slack.Config{Mode: s.Mode, APIURL: s.APIURL, HTTPAddr: s.HTTPAddr, PostInterval: time.Duration(s.PostInterval),
			HistoryInterval: time.Duration(s.HistoryInterval)}
		var err error
		if sc.BotToken, err = a.secret("slack.bot_token_env", s.BotTokenEnv); err != nil {
			return nil, nil, err
		}
		if s.Mode == "socket" {
			sc.AppToken, err = a.secret("slack.app_token_env", s.AppTokenEnv)
		} else {
			sc.SigningSecret, err = a.secret("slack.signing_secret_env", s.SigningSecretEnv)
		}
		if err != nil {
			return nil, nil, err
		}
		out = append(out, slack.New(sc, log))
	}
	if !cfg.webOn() {
		return out, nil, nil
	}
	secret, err := webSecret(context.Background(), db)
	if err != nil {
		return nil, nil, err
	}
	w := web.New(web.Config{Addr: cfg.Web.Addr, OpenLobby: cfg.Web.OpenLobby, PublicURL: cfg.Web.PublicURL, Secret: secret, Rules: ruleList(), Agents: agentNames(bc),
		Presets: presetNames(bc), Defaults: webDefaults(bc), PresetTables: webPresets(bc), VotesIfAsked: votesIfAsked(bc), Log: log, Shared: cl != nil}, db)
	return append(out, w), w, nil
}

// secret reads a token from the environment variable named by key.
func (a *App) secret(key, env string) (string, error) {
	v := a.Getenv(env)
	if v == "" {
		return "", usagef("%s%s: the environment variable %s is empty or unset", a.configFile(), key, env)
	}
	return v, nil
}

// webSecret returns the key that signs the web channel's join, organiser
// and host links, made on first use and kept in the database so links
// survive restarts.
func webSecret(ctx context.Context, db store.Backend) ([]byte, error) {
	const ns, key = "config", "web-secret"
	v, ok, err := db.GetBlob(ctx, ns, key)
	if err != nil {
		return nil, fmt.Errorf("web secret: %w", err)
	}
	if ok && len(v) >= 32 {
		return v, nil
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, fmt.Errorf("web secret: %w", err)
	}
	v = []byte(hex.EncodeToString(raw))
	if f, ok := db.(firstBlobber); ok { // several processes may be starting at once
		if v, err = f.FirstBlob(ctx, ns, key, v); err != nil {
			return nil, fmt.Errorf("web secret: %w", err)
		}
		return v, nil
	}
	if err := db.PutBlob(ctx, ns, key, v); err != nil {
		return nil, fmt.Errorf("web secret: %w", err)
	}
	return v, nil
}

// firstBlobber is a store that several processes share (etcdstore.DB):
// of values stored under one key at once, the first wins.
type firstBlobber interface {
	FirstBlob(ctx context.Context, ns, key string, v []byte) ([]byte, error)
}

func ruleList() []string {
	var out []string
	for _, r := range vote.Rules() {
		out = append(out, string(r))
	}
	return out
}

func agentNames(bc bot.Config) []string { return slices.Sorted(maps.Keys(bc.Agents)) }

func presetNames(bc bot.Config) []string {
	return slices.DeleteFunc(slices.Sorted(maps.Keys(bc.Presets)), isStudyPreset)
}

// addLiveTables adds the protocols' built-in live tables and their
// agents (protocol.Live). A [[table]] of the same name replaces one.
// Without a language model (models false) a table whose seats ask one
// (mediation-llm) is not offered: it could not run.
func addLiveTables(bc *bot.Config, models bool) {
	for _, p := range protocol.All() {
		l, ok := p.(protocol.Live)
		if !ok {
			continue
		}
		for _, t := range l.LiveTables() {
			if !models && slices.ContainsFunc(t.Seats, asksAModel) {
				continue
			}
			var names []string
			for _, seat := range t.Seats {
				bc.Agents[seat.Name] = seat
				names = append(names, seat.Name)
			}
			bc.Presets[t.Name] = bot.Preset{Name: t.Name, Config: t.Over(bc.Defaults), Agents: names}
		}
	}
}

// asksAModel reports whether seat is a protocol's own seat that asks a
// language model (a mediation's model mediator).
func asksAModel(seat roundtable.Participant) bool {
	_, _, ok := protocol.ModelSeat(seat)
	return ok
}
