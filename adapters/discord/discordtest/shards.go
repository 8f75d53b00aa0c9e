package discordtest

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/roundtable-ai/roundtable/adapters/discord"
)

// Sharding, as Discord does it: a bot's guilds are split over shards, a
// guild in shard (guild_id >> 22) % count; each shard is a gateway
// session of its own, identified with shard [id, count], carrying its
// guilds' events (and shard 0 the direct messages). A session may carry
// at most MaxGuildsPerShard guilds: past that, identifying closes with
// 4011 "Sharding required". Identifies are limited per bucket (shard %
// max_concurrency), one per IdentifyWindow (Discord's is 5 s; zero does
// not limit them); one too soon is answered Invalid Session.

// Defaults of the sharding options.
const (
	DefaultMaxGuildsPerShard = 2500
	// DiscordIdentifyWindow is Discord's IdentifyWindow.
	DiscordIdentifyWindow = 5 * time.Second
	guildsPerShardAdvised = 1000 // /gateway/bot's shards: one per 1,000 guilds
)

// Identify is an IDENTIFY the fake accepted.
type Identify struct {
	Shard, Count int
	At           time.Time
}

func (o *Options) shardDefaults() {
	if o.MaxGuildsPerShard <= 0 {
		o.MaxGuildsPerShard = DefaultMaxGuildsPerShard
	}
	if o.MaxConcurrency <= 0 {
		o.MaxConcurrency = 1
	}
}

// GuildIDInShard returns a guild ID (a snowflake, made from n) that lands
// in shard of count.
func GuildIDInShard(n, shard, count int) string {
	return strconv.FormatUint(uint64(n*count+shard)<<22|uint64(n%4096), 10)
}

// shardOf is the shard of the current count that carries guild.
func (s *Server) shardOf(guild string) int {
	if guild == "" {
		return 0
	}
	return discord.ShardOf(guild, s.shardCount)
}

// admitLocked checks an IDENTIFY for shard of count and returns the
// guilds the session carries, or closes the connection and says why.
// The caller holds mu.
func (s *Server) admitLocked(gc *gwConn, shard, count int) ([]*guild, error) {
	if count < 1 || shard < 0 || shard >= count {
		return nil, gc.closeWith(4010, "Invalid shard.")
	}
	var guilds []*guild
	for _, g := range s.guilds {
		if discord.ShardOf(g.ID, count) == shard {
			guilds = append(guilds, g)
		}
	}
	if len(guilds) > s.opts.MaxGuildsPerShard {
		s.stats.ShardingRequired++
		return nil, gc.closeWith(4011, "Sharding required.")
	}
	bucket := shard % s.opts.MaxConcurrency
	now := time.Now()
	if last, ok := s.identified[bucket]; ok && s.opts.IdentifyWindow > 0 && now.Sub(last) < s.opts.IdentifyWindow {
		s.stats.IdentifiesTooSoon++
		return nil, gc.send(map[string]any{"op": 9, "d": false})
	}
	s.identified[bucket] = now
	if count != s.shardCount { // a new count: the sessions of the old one are over
		for _, sess := range s.sessions {
			if sess.conn != nil {
				_ = sess.conn.c.Close()
			}
		}
		clear(s.sessions)
		s.shardCount = count
	}
	s.identifies = append(s.identifies, Identify{Shard: shard, Count: count, At: now})
	slices.SortFunc(guilds, func(a, b *guild) int { return strings.Compare(a.ID, b.ID) })
	return guilds, nil
}

// closeWith closes the connection with a gateway close code; it returns
// an error for the caller to stop at.
func (g *gwConn) closeWith(code int, text string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	_ = g.c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(time.Second))
	return &websocket.CloseError{Code: code, Text: text}
}

// gatewayBot answers GET /gateway/bot: the gateway, the shards advised
// and the session start limit, with max_concurrency.
func (s *Server) gatewayBot(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	shards := max(1, (len(s.guilds)+guildsPerShardAdvised-1)/guildsPerShardAdvised)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"url": "ws" + strings.TrimPrefix(s.srv.URL, "http") + "/ws", "shards": shards,
		"session_start_limit": map[string]any{"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": s.opts.MaxConcurrency}})
}

// Identifies lists the identifies the fake accepted, in order.
func (s *Server) Identifies() []Identify {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.identifies)
}

// Shards lists the shards with a live session, in order.
func (s *Server) Shards() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []int
	for shard, sess := range s.sessions {
		if sess.conn != nil {
			out = append(out, shard)
		}
	}
	slices.Sort(out)
	return out
}

// guildOfLocked is the guild of channel ("" for a DM or an unknown
// channel); the caller holds mu.
func (s *Server) guildOfLocked(channel string) string {
	if c := s.channels[channel]; c != nil {
		return c.guildID()
	}
	return ""
}
