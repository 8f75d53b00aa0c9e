package discordtest

import (
	"log/slog"
	"sync"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// Harness is the bottest.Harness of the discord adapter: a fake Discord
// and the discord.Platform connected to it. Users act through gateway
// dispatches built like Discord's; what they see is read from the fake.
type Harness struct {
	*Server
	log *slog.Logger

	mu sync.Mutex
	p  *discord.Platform
}

var _ bottest.Harness = (*Harness)(nil)

// NewHarness returns a harness over s whose platforms log to log.
func NewHarness(s *Server, log *slog.Logger) *Harness {
	h := &Harness{Server: s, log: log}
	h.p = discord.New(s.Config(), log)
	return h
}

// Config is the discord.Config that points a platform at the fake.
func (s *Server) Config() discord.Config {
	return discord.Config{Token: s.opts.Token, APIURL: s.URL(), Guilds: []string{GuildID}}
}

// Platform implements bottest.Harness.
func (h *Harness) Platform() bot.Platform {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.p
}

// Restart implements bottest.Harness: the old bot's session ends and a
// new platform, with nothing cached, takes its place.
func (h *Harness) Restart() {
	h.EndSession()
	h.mu.Lock()
	defer h.mu.Unlock()
	h.p = discord.New(h.Config(), h.log)
}

var _ bottest.FileReceiver = (*Harness)(nil)

// ReceivedFiles implements bottest.FileReceiver: the files attached to
// u's ephemeral answers.
func (h *Harness) ReceivedFiles(u bottest.User) []bottest.File {
	var out []bottest.File
	for _, f := range h.Files(u) {
		out = append(out, bottest.File{Name: f.Name, Data: f.Data})
	}
	return out
}
