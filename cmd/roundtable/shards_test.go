package main

import (
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// twoShards is how serve says it connected two shards of 4.
var twoShards = regexp.MustCompile(`(?s)connected to the gateway[^\n]* shard=(\d+) shards=4.*connected to the gateway[^\n]* shard=(\d+) shards=4`)

// TestTwoServesRunTheShards runs a Discord bot in 5,000 guilds, too many
// for one shard, on 4 shards: two serves on one etcd store run two shards
// each (--shards 0-1/4 and [discord] shards = "2-3/4"), their identifies
// paced through the cluster within max_concurrency's buckets, and a table
// starts and runs in a guild of every shard.
func TestTwoServesRunTheShards(t *testing.T) {
	const shards = 4
	dc := discordtest.New(t, discordtest.Options{MaxConcurrency: 2, IdentifyWindow: discordtest.DiscordIdentifyWindow})
	for n := range 5000 {
		dc.AddGuild(discordtest.GuildIDInShard(n/shards+1, n%shards, shards), fmt.Sprintf("guild %d", n))
	}
	var drivers []*driver
	for sh := range shards {
		guild, ch := discordtest.GuildIDInShard(1, sh, shards), fmt.Sprintf("%d", 9100+sh)
		dc.AddChannel(guild, ch, "general")
		dc.AddRole(guild, discordtest.Role{ID: guild + "9", Name: "admins", Permissions: 1 << 3})
		dc.AddMember(guild, bottest.Alice, guild+"9")
		dc.AddMember(guild, bottest.Bob)
		drivers = append(drivers, &driver{t: t, p: dc, ch: ch})
	}
	discordCfg := fmt.Sprintf("lease_ttl = \"10s\"\n\n[discord]\ntoken_env = \"RT_TEST_DISCORD_TOKEN\"\napi_url = %q\nguilds = [%q]\n", dc.URL(), discordtest.GuildID)
	env := map[string]string{"RT_TEST_DISCORD_TOKEN": dc.Token()}
	cfgA := etcdConfig(t, discordCfg)
	body, err := os.ReadFile(cfgA)
	if err != nil {
		t.Fatal(err)
	}
	cfgB := writeConfig(t, string(body)+"shards = \"2-3/4\"\n") // the same store, the other shards
	a := startServe(t, cfgA, env, "--shards", "0-1/4")
	b := startServe(t, cfgB, env)
	drivers[0].waitFor("every shard to connect", func() bool { return len(dc.Shards()) == shards && dc.Registered() })
	for _, s := range []*server{a, b} {
		s.waitOutput(twoShards)
	}
	for _, d := range drivers {
		d.start(map[string]string{"topic": "Sharded " + d.ch, "agents": "none"})
	}
	if st := dc.Stats(); st.IdentifiesTooSoon != 0 || st.ShardingRequired != 0 {
		t.Errorf("%d identifies too soon for their bucket, %d closed with 4011", st.IdentifiesTooSoon, st.ShardingRequired)
	}
}
