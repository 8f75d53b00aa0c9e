package discord

import "github.com/roundtable-ai/roundtable/bot"

var _ bot.Forgetter = (*Platform)(nil)

// Forget implements bot.Forgetter: the service is done with a table's
// thread, so its parent is no longer kept (parentOf looks it up again
// should an event come from the thread later).
func (p *Platform) Forget(channel string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.parents, channel)
}
