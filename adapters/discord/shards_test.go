package discord_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestParseShards reads the shard ranges of --shards and [discord] shards.
func TestParseShards(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]discord.Shards{
		"": {}, "auto": {Auto: true}, "0-3/16": {First: 0, Last: 3, Count: 16}, "5/16": {First: 5, Last: 5, Count: 16},
	} {
		got, err := discord.ParseShards(in)
		if err != nil || got != want {
			t.Errorf("ParseShards(%q) = %+v, %v; want %+v", in, got, err, want)
		}
		if got.String() != in {
			t.Errorf("%+v prints as %q, want %q", got, got.String(), in)
		}
	}
	for _, in := range []string{"3", "0-3", "4-2/16", "0-16/16", "0/0", "a-b/c", "-1/4"} {
		if _, err := discord.ParseShards(in); err == nil {
			t.Errorf("ParseShards(%q) accepted it", in)
		}
	}
}

// TestUnshardedBotPastTheGuildLimit runs an unsharded bot in 2,501 guilds:
// Discord closes its gateway with 4011 "Sharding required", and Run says
// so instead of retrying for ever.
func TestUnshardedBotPastTheGuildLimit(t *testing.T) {
	t.Parallel()
	srv := discordtest.New(t, discordtest.Options{})
	for n := range discordtest.DefaultMaxGuildsPerShard {
		srv.AddGuild(discordtest.GuildIDInShard(n+1, 0, 1), fmt.Sprintf("guild %d", n))
	}
	p := discord.New(srv.Config(), testLogger(t))
	err := p.Run(t.Context(), func(context.Context, *bot.Event) {})
	if err == nil || !strings.Contains(err.Error(), "4011") {
		t.Fatalf("Run = %v, want the gateway's 4011", err)
	}
	if st := srv.Stats(); st.ShardingRequired != 1 || st.Identifies != 0 {
		t.Errorf("the fake saw %d identifies closed with 4011 and %d accepted, want 1 and 0", st.ShardingRequired, st.Identifies)
	}
}

// TestShardsSplitTheGuildsOverTwoProcesses runs a bot in 5,000 guilds (too
// many for one shard) on 4 shards, two in each of two processes: every
// shard connects, identifies keep to max_concurrency's buckets across the
// processes, and a table starts in a guild of every shard, set up by the
// process that runs the shard.
func TestShardsSplitTheGuildsOverTwoProcesses(t *testing.T) {
	t.Parallel()
	const shards, window = 4, 300 * time.Millisecond
	srv := discordtest.New(t, discordtest.Options{MaxConcurrency: 2, IdentifyWindow: window})
	for n := range 5000 {
		srv.AddGuild(discordtest.GuildIDInShard(n/shards+1, n%shards, shards), fmt.Sprintf("guild %d", n))
	}
	channels := make([]string, shards)
	for sh := range shards {
		channels[sh] = fmt.Sprintf("%d", 9100+sh)
		guild := discordtest.GuildIDInShard(1, sh, shards)
		srv.AddChannel(guild, channels[sh], "general")
		srv.AddRole(guild, discordtest.Role{ID: guild + "9", Name: "admins", Permissions: administrator})
		srv.AddMember(guild, bottest.Alice, guild+"9")
	}
	pace := &pacer{buckets: map[int]*sync.Mutex{}, last: map[int]time.Time{}}
	var processes []*discord.Platform
	for _, r := range []string{"0-1/4", "2-3/4"} {
		cfg := srv.Config()
		cfg.Shards, _ = discord.ParseShards(r)
		cfg.Turn, cfg.IdentifyEvery = pace.turn, window
		p := discord.New(cfg, testLogger(t))
		processes = append(processes, p)
		startService(t, p)
	}
	waitUntil(t, srv, "every shard to connect", func() bool { return len(srv.Shards()) == shards && srv.Registered() })
	if st := srv.Stats(); st.IdentifiesTooSoon != 0 || st.ShardingRequired != 0 {
		t.Errorf("%d identifies too soon for their bucket, %d closed with 4011", st.IdentifiesTooSoon, st.ShardingRequired)
	}
	last := map[int]time.Time{}
	for _, id := range srv.Identifies() {
		if b := id.Shard % 2; !last[b].IsZero() && id.At.Sub(last[b]) < window {
			t.Errorf("shard %d identified %s after the last of its bucket", id.Shard, id.At.Sub(last[b]))
		}
		last[id.Shard%2] = id.At
	}
	for sh, ch := range channels {
		guild := discordtest.GuildIDInShard(1, sh, shards)
		if carries := processes[sh/2].Carries(guild); !carries || processes[1-sh/2].Carries(guild) {
			t.Errorf("shard %d: process %d carries its guild %t, the other %t", sh, sh/2, carries, !carries)
		}
		must(t, srv.Command(context.Background(), bottest.Alice, ch, "start", map[string]string{"topic": fmt.Sprintf("Shard %d", sh), "agents": "none"}))
		threads := srv.Threads(ch)
		if len(threads) != 1 {
			t.Fatalf("shard %d: %d threads, want the table's; Alice was told %q", sh, len(threads), lastText(srv, bottest.Alice))
		}
		waitPost(t, srv, threads[0], fmt.Sprintf("**Shard %d", sh))
	}
}

// administrator is Discord's Administrator permission.
const administrator = 1 << 3

// pacer runs identifies in their bucket's turn across the platforms of a
// test as serve's cluster does across processes: one at a time, each
// every after the last was answered.
type pacer struct {
	mu      sync.Mutex
	buckets map[int]*sync.Mutex
	last    map[int]time.Time
}

func (p *pacer) turn(ctx context.Context, bucket int, every time.Duration, open func() error) error {
	p.mu.Lock()
	m := p.buckets[bucket]
	if m == nil {
		m = &sync.Mutex{}
		p.buckets[bucket] = m
	}
	p.mu.Unlock()
	m.Lock()
	defer m.Unlock()
	p.mu.Lock()
	wait := time.Until(p.last[bucket].Add(every))
	p.mu.Unlock()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(wait):
	}
	err := open()
	p.mu.Lock()
	p.last[bucket] = time.Now()
	p.mu.Unlock()
	return err
}
