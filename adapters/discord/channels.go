package discord

import (
	"context"

	"github.com/bwmarrin/discordgo"
)

// knownParent returns the parent of channel if it is a thread the
// platform has seen (created it, or the gateway reported it), else "".
// It does no I/O: the gateway goroutine calls it.
func (p *Platform) knownParent(channel string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.parents[channel]
}

// parentOf returns the parent of channel when it is a thread and "" when
// it is not, asking Discord about channels it has not seen.
func (p *Platform) parentOf(ctx context.Context, channel string) (string, error) {
	p.mu.Lock()
	parent, ok := p.parents[channel]
	p.mu.Unlock()
	if ok {
		return parent, nil
	}
	ch, err := p.s.Channel(channel, discordgo.WithContext(ctx))
	if err != nil {
		return "", wrap("look up channel "+channel, err)
	}
	p.learn(ch)
	return p.knownParent(channel), nil
}

// learn remembers whether ch is a thread, and whose.
func (p *Platform) learn(ch *discordgo.Channel) {
	if ch == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.learnLocked(ch)
}

func (p *Platform) learnLocked(ch *discordgo.Channel) {
	if ch.IsThread() {
		p.parents[ch.ID] = ch.ParentID
		p.archived[ch.ID] = ch.ThreadMetadata != nil && ch.ThreadMetadata.Archived
	} else {
		p.parents[ch.ID] = ""
	}
}

// learnGuild remembers a guild's channels and active threads.
func (p *Platform) learnGuild(g *discordgo.Guild) {
	if g == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.learnGuildLocked(g)
}

func (p *Platform) learnGuildLocked(g *discordgo.Guild) {
	for _, list := range [][]*discordgo.Channel{g.Channels, g.Threads} {
		for _, ch := range list {
			if ch != nil {
				p.learnLocked(ch)
			}
		}
	}
}
