package discord

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"golang.org/x/sync/errgroup"

	"github.com/roundtable-ai/roundtable/bot"
)

// A bot in many guilds is sharded: its guilds are split over Count
// shards, a guild in shard (guild_id >> 22) % Count, each shard a gateway
// connection of its own that carries its guilds' events (shard 0 also the
// direct messages). Discord closes the gateway of a bot with more than
// 2,500 guilds on one shard (4011 "Sharding required"). A process runs a
// range of the shards; another process runs the rest, and the tables of a
// guild are served by the process that runs its shard (bot.Partitioned).
// Shards identify in buckets (shard % max_concurrency, from GET
// /gateway/bot): one identify per bucket per IdentifyEvery.

// DefaultIdentifyEvery is how often the shards of one bucket identify,
// from one identify answered to the next sent: Discord's 5 s, and half a
// second for the processes' clocks.
const DefaultIdentifyEvery = 5500 * time.Millisecond

// Shards is the range of the bot's shards a process runs: First to Last
// of Count. The zero value is unsharded: one connection carries every
// guild.
type Shards struct {
	First, Last, Count int
	// Auto runs every shard of the count GET /gateway/bot advises.
	Auto bool
}

// ParseShards parses a shard range: "0-3/16" (shards 0 to 3 of 16), "5/16"
// (shard 5 of 16), "auto" (every shard, as many as Discord advises), or
// "" (unsharded).
func ParseShards(s string) (Shards, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "":
		return Shards{}, nil
	case "auto":
		return Shards{Auto: true}, nil
	}
	rng, count, ok := strings.Cut(s, "/")
	first, last, isRange := strings.Cut(rng, "-")
	if !isRange {
		last = first
	}
	n, err1 := strconv.Atoi(count)
	a, err2 := strconv.Atoi(first)
	b, err3 := strconv.Atoi(last)
	switch {
	case !ok || errors.Join(err1, err2, err3) != nil:
		return Shards{}, fmt.Errorf("shards %q: want FIRST-LAST/COUNT (0-3/16), SHARD/COUNT or auto", s)
	case n < 1:
		return Shards{}, fmt.Errorf("shards %q: the count must be at least 1", s)
	case a < 0 || b < a || b >= n:
		return Shards{}, fmt.Errorf("shards %q: want 0 <= FIRST <= LAST < %d", s, n)
	}
	return Shards{First: a, Last: b, Count: n}, nil
}

// String formats the range as ParseShards reads it.
func (r Shards) String() string {
	switch {
	case r.Auto:
		return "auto"
	case r.Count == 0:
		return ""
	case r.First == r.Last:
		return fmt.Sprintf("%d/%d", r.First, r.Count)
	}
	return fmt.Sprintf("%d-%d/%d", r.First, r.Last, r.Count)
}

// ShardOf is the shard of count that carries guild's events.
func ShardOf(guild string, count int) int {
	id, _ := strconv.ParseUint(guild, 10, 64)
	return int((id >> 22) % uint64(max(count, 1)))
}

// gateway is the platform's connections: one per shard it runs.
type gateway struct {
	shards   Shards // resolved: Count set, not Auto
	buckets  int    // max_concurrency
	sessions []*discordgo.Session

	mu    sync.Mutex
	ready map[int]bool // shards whose READY came
}

// Carries implements bot.Partitioned: whether this process runs the
// shard of guild space. An unsharded platform carries every guild.
func (p *Platform) Carries(space string) bool {
	r := p.cfg.Shards
	if r.Auto || r.Count == 0 || space == "" {
		return true // every shard, or not a guild's
	}
	sh := ShardOf(space, r.Count)
	return sh >= r.First && sh <= r.Last
}

// Moved implements bot.Partitioned: a process's shards are fixed while
// it runs (resharding is a restart), so nothing is ever sent.
func (p *Platform) Moved() <-chan struct{} { return nil }

// connect resolves the shards (asking GET /gateway/bot for the count of
// an auto range and for max_concurrency) and makes a session per shard,
// the platform's own session the first.
func (p *Platform) connect() error {
	r := p.cfg.Shards
	g := &gateway{shards: r, buckets: 1, sessions: []*discordgo.Session{p.s}, ready: map[int]bool{}}
	if r.Count == 0 && !r.Auto {
		p.gw = g
		return nil
	}
	info, err := p.s.GatewayBot()
	if err != nil {
		return wrap("GET /gateway/bot", err)
	}
	g.buckets = max(info.SessionStartLimit.MaxConcurrency, 1)
	if r.Auto {
		g.shards = Shards{First: 0, Last: max(info.Shards, 1) - 1, Count: max(info.Shards, 1)}
	}
	g.sessions = nil
	for sh := g.shards.First; sh <= g.shards.Last; sh++ {
		s := p.s
		if sh > g.shards.First {
			s = p.newSession()
		}
		s.ShardID, s.ShardCount = sh, g.shards.Count
		g.sessions = append(g.sessions, s)
	}
	p.gw = g
	p.log.Info("sharded", "shards", g.shards.String(), "max_concurrency", g.buckets)
	return nil
}

// shardReady notes shard's READY and reports whether every shard of the
// process is ready now.
func (g *gateway) shardReady(shard int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ready[shard] = true
	return len(g.ready) == len(g.sessions)
}

// openAll opens every shard's connection: the buckets at once, the
// shards of a bucket one after another, each in the bucket's turn.
func (p *Platform) openAll(ctx context.Context) error {
	g := p.gw
	eg, ectx := errgroup.WithContext(ctx)
	for b := range g.buckets {
		eg.Go(func() error {
			n := 0
			for _, s := range g.sessions {
				if s.ShardID%g.buckets != b {
					continue
				}
				if err := p.openInTurn(ectx, b, n == 0, s); err != nil {
					return err
				}
				n++
			}
			return nil
		})
	}
	return eg.Wait()
}

// openInTurn opens a shard's session in its bucket's turn: Config.Turn's
// across the processes of the bot, or else IdentifyEvery after the
// bucket's last shard in this process opened (its identify answered).
func (p *Platform) openInTurn(ctx context.Context, bucket int, first bool, s *discordgo.Session) error {
	every := p.cfg.IdentifyEvery
	if every <= 0 {
		every = DefaultIdentifyEvery
	}
	open := func() error { return p.open(ctx, s) }
	if p.cfg.Turn != nil {
		if err := p.cfg.Turn(ctx, bucket, every, open); err != nil {
			return fmt.Errorf("discord: identify shard %d in bucket %d: %w", s.ShardID, bucket, err)
		}
		return nil
	}
	if !first {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
	}
	return open()
}

var _ bot.Partitioned = (*Platform)(nil)
