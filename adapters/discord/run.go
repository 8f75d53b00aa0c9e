package discord

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/bot"
)

// Run implements bot.Platform: it opens the gateway, registers
// /roundtable once READY arrives, and hands events to h in order per
// channel until ctx is done. discordgo reconnects (and resumes) by itself;
// Run returns an error only when Discord refuses the bot for good.
func (p *Platform) Run(ctx context.Context, h bot.Handler) error {
	if err := p.connect(); err != nil {
		return err
	}
	in := newInbox(ctx, h, p)
	ready := make(chan struct{}, 1)
	remove := p.listen(ctx, in, ready)
	defer remove()
	if err := p.openAll(ctx); err != nil {
		in.wait()
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	defer p.close(in)
	registered := false
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ready:
			if registered {
				continue
			}
			if err := p.register(ctx); err != nil {
				p.log.Error("cannot register the slash command", "err", err)
				continue
			}
			registered = true
		}
	}
}

// open connects a shard's session to the gateway, retrying with backoff
// while the failure may be transient. It returns ctx's error if ctx ends
// first.
func (p *Platform) open(ctx context.Context, s *discordgo.Session) error {
	wait := time.Second
	for {
		err := s.Open()
		if err == nil {
			p.log.Info("connected to the gateway", "shard", s.ShardID, "shards", max(s.ShardCount, 1))
			return nil
		}
		if permanent(err) {
			return wrap("open gateway", err)
		}
		p.log.Warn("cannot connect to the gateway; retrying", "err", err, "in", wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Minute)
	}
}

// close disconnects for good. Reconnecting is turned off first: Close
// makes discordgo's heartbeat goroutine fail, which would reopen the
// session otherwise. Close takes about a second (discordgo waits for the
// server to close the socket).
func (p *Platform) close(in *inbox) {
	for _, s := range p.gw.sessions {
		s.Lock()
		s.ShouldReconnectOnError = false
		s.Unlock()
		if err := s.Close(); err != nil {
			p.log.Warn("close gateway", "shard", s.ShardID, "err", err)
		}
	}
	in.wait()
	p.log.Info("disconnected from the gateway")
}

// listen installs the gateway event handlers and returns their remover.
// discordgo calls them one at a time, in order (SyncEvents), so they only
// convert and queue.
func (p *Platform) listen(ctx context.Context, in *inbox, ready chan<- struct{}) func() {
	var removers []func()
	for _, s := range p.gw.sessions {
		removers = append(removers,
			s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
				p.onReady(r)
				if !p.gw.shardReady(s.ShardID) {
					return
				}
				p.ready.Set()
				select {
				case ready <- struct{}{}:
				default:
				}
			}),
			s.AddHandler(func(_ *discordgo.Session, e *discordgo.Event) { p.onDispatch(ctx, in, e) }),
			s.AddHandler(func(_ *discordgo.Session, c *discordgo.ThreadCreate) { p.learn(c.Channel) }),
			s.AddHandler(func(_ *discordgo.Session, c *discordgo.ThreadUpdate) { p.learn(c.Channel) }),
			s.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildCreate) { p.learnGuild(g.Guild) }))
	}
	return func() {
		for _, r := range removers {
			r()
		}
	}
}

func (p *Platform) onReady(r *discordgo.Ready) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.User != nil {
		p.self = r.User.ID
	}
	p.app = p.self
	if r.Application != nil && r.Application.ID != "" {
		p.app = r.Application.ID
	}
	for _, g := range r.Guilds {
		p.learnGuildLocked(g)
	}
}

// onDispatch takes people's interactions and messages from their raw
// dispatch (discordgo calls it after decoding), so that one whose JSON
// cannot be taken as its author wrote it (bot.Unreadable: a lone
// surrogate escape, which decoding turned into U+FFFD) is refused with
// the reason instead of passed on.
func (p *Platform) onDispatch(ctx context.Context, in *inbox, e *discordgo.Event) {
	switch d := e.Struct.(type) {
	case *discordgo.InteractionCreate:
		p.onInteraction(ctx, in, d.Interaction, bot.Unreadable(e.RawData))
	case *discordgo.MessageCreate:
		p.onMessage(in, d.Message, bot.Unreadable(e.RawData))
	}
}

func (p *Platform) onInteraction(ctx context.Context, in *inbox, i *discordgo.Interaction, unreadable string) {
	if i == nil {
		return
	}
	ev := interactionEvent(i, p.knownParent)
	if ev == nil {
		return
	}
	it := p.track(ctx, i)
	ev.Native = it
	in.push(ev, it.handled, unreadable)
}

func (p *Platform) onMessage(in *inbox, m *discordgo.Message, unreadable string) {
	if m == nil {
		return
	}
	self, _ := p.ids()
	if ev := messageEvent(m, self, p.knownParent); ev != nil {
		in.push(ev, nil, unreadable)
	}
}
