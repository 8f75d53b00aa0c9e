package slack

// Ready implements bot.Readier: the bot delivers its posts once it is
// closed.
func (p *Platform) Ready() <-chan struct{} { return p.ready.Ready() }
