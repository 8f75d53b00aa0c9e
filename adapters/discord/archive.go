package discord

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// Archived threads. Discord archives a quiet thread after its
// auto-archive duration; a table's thread may sit quiet longer than that
// during a long phase. The bot's messages in an archived thread cannot be
// edited, and posts into it may fail too ("Thread is archived", 50083),
// so the thread is unarchived first when the gateway said it was archived,
// and otherwise when Discord refuses for that reason (then the call is
// made again, once).

// reopening runs call in channel, unarchiving the thread before it when
// it is known to be archived, or after a refusal because it is.
func (p *Platform) reopening(ctx context.Context, channel string, call func() error) error {
	if p.isArchived(channel) {
		if err := p.unarchive(ctx, channel); err != nil {
			return err
		}
	}
	err := call()
	if !isCode(err, discordgo.ErrCodePerformedOperationOnArchivedThread) {
		return err
	}
	if err := p.unarchive(ctx, channel); err != nil {
		return err
	}
	return call()
}

// unarchive reopens a thread (which needs Send Messages in Threads).
func (p *Platform) unarchive(ctx context.Context, thread string) error {
	open := false
	ch, err := p.s.ChannelEditComplex(thread, &discordgo.ChannelEdit{Archived: &open}, discordgo.WithContext(ctx))
	if err != nil {
		err = p.refused(ctx, thread, discordgo.PermissionSendMessagesInThreads, err)
		return fmt.Errorf("discord: unarchive thread %s: %w", thread, err)
	}
	p.learn(ch)
	p.log.Info("unarchived the thread", "thread", thread)
	return nil
}

// isArchived reports whether the gateway said channel is an archived
// thread.
func (p *Platform) isArchived(channel string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.archived[channel]
}
