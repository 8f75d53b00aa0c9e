package bot

import (
	"context"
	"sync"
	"time"
)

// Delivery retry defaults (Config.RetryMin, Config.RetryMax).
const (
	DefaultRetryMin = 250 * time.Millisecond
	DefaultRetryMax = 30 * time.Second
	// sendTimeout bounds one attempt to post or edit; an attempt under
	// way when the service stops is allowed to finish, so its outcome is
	// recorded rather than guessed.
	sendTimeout = 30 * time.Second
)

// courier delivers a platform's intents: in order per channel, one lane
// (and goroutine, while it has work) per channel, each intent retried with
// backoff until it is delivered.
type courier struct {
	svc      *Service
	platform Platform

	mu    sync.Mutex
	lanes map[string]*lane
}

// lane is one channel's queue. busy is the item being sent.
type lane struct {
	items    []*item
	queued   map[string]bool // table/mark of every queued item
	busy     *item
	draining bool // a drain goroutine owns the lane
}

// item is an intent on its way, with every mark it settles: a post whose
// edits arrived before it was sent goes out in its final form and settles
// them too.
type item struct {
	intent
	sent  *sentLog
	marks []string
}

func newCourier(svc *Service, p Platform) *courier {
	return &courier{svc: svc, platform: p, lanes: map[string]*lane{}}
}

// enqueue queues in unless it was delivered or is queued already. It
// never blocks: it runs under the table's lock.
func (c *courier) enqueue(in intent, sent *sentLog) {
	if sent.has(in.Mark) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.lanes[in.Channel]
	if l == nil {
		l = &lane{queued: map[string]bool{}}
		c.lanes[in.Channel] = l
	}
	qk := in.Table + "/" + in.Mark
	if l.queued[qk] {
		return
	}
	l.queued[qk] = true
	if in.Edit {
		if it := l.pendingPost(in.Table, in.Key); it != nil {
			// The post is not out yet: it goes out as the edit says (a
			// closed phase's prompt is posted closed, never dropped).
			it.Msg.Text, it.Msg.Controls = in.Msg.Text, in.Msg.Controls
			it.marks = append(it.marks, in.Mark)
			return
		}
	}
	l.items = append(l.items, &item{intent: in, sent: sent, marks: []string{in.Mark}})
	sent.queued()
	if !l.draining {
		l.draining = true
		c.svc.wg.Add(1)
		go c.drain(c.svc.context(), in.Channel, l)
	}
}

// pendingPost finds the queued, not yet sending, post of table under key.
func (l *lane) pendingPost(table, key string) *item {
	for i := len(l.items) - 1; i >= 0; i-- {
		it := l.items[i]
		if !it.Edit && it.Table == table && it.Key == key && it != l.busy {
			return it
		}
	}
	return nil
}

// drain delivers a lane's items in order until it is empty or ctx is
// done; what is left then is delivered after the next start, because the
// log still implies it.
func (c *courier) drain(ctx context.Context, channel string, l *lane) {
	defer c.svc.wg.Done()
	if !c.waitReady(ctx) {
		c.abandon(channel, l)
		return
	}
	for {
		c.mu.Lock()
		if len(l.items) == 0 {
			l.draining = false
			if c.lanes[channel] == l {
				delete(c.lanes, channel)
			}
			c.mu.Unlock()
			return
		}
		it := l.items[0]
		l.busy = it
		c.mu.Unlock()
		if !c.deliver(ctx, it) {
			c.abandon(channel, l)
			return
		}
		// Delivered, or refused for good: either way it leaves the lane.
		c.mu.Lock()
		l.items, l.busy = l.items[1:], nil
		for _, m := range it.marks {
			delete(l.queued, it.Table+"/"+m)
		}
		c.mu.Unlock()
		it.sent.settled()
	}
}

// abandon drops a lane when the service stops.
func (c *courier) abandon(channel string, l *lane) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l.busy, l.draining = nil, false
	if c.lanes[channel] == l {
		delete(c.lanes, channel)
	}
}

// waitReady waits until the platform can post (Readier), or ctx is done.
func (c *courier) waitReady(ctx context.Context) bool {
	r, ok := c.platform.(Readier)
	if !ok {
		return ctx.Err() == nil
	}
	select {
	case <-r.Ready():
		return true
	case <-ctx.Done():
		return false
	}
}

// deliver sends it, retrying with backoff, and reports whether it is done
// (false: ctx ended first). A post the platform refuses for good (Permanent:
// a missing permission, an archived channel) is dropped unrecorded: the
// adapter told the channel what is missing, and the log still implies the
// post, so the next start delivers it once the cause is fixed.
func (c *courier) deliver(ctx context.Context, it *item) bool {
	wait := c.svc.cfg.retryMin()
	for attempt := 1; ; attempt++ {
		err := c.send(ctx, it)
		if err == nil {
			return true
		}
		if Permanent(err) {
			c.svc.log.Error("delivery refused; it is tried again at the next start", "platform", c.platform.Name(),
				"table", it.Table, "key", it.Key, "err", err)
			return true
		}
		// The attempt may have got through with its answer lost.
		it.Msg.MaybeSent = true
		c.svc.log.Warn("delivery failed; retrying", "platform", c.platform.Name(), "table", it.Table,
			"key", it.Key, "attempt", attempt, "retry_in", wait, "err", err)
		if !pause(ctx, wait) {
			return false
		}
		wait = min(2*wait, c.svc.cfg.retryMax())
	}
}

// send makes one attempt. It runs to its end even when ctx is cancelled,
// so that a post the platform accepted is recorded.
func (c *courier) send(ctx context.Context, it *item) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sendTimeout)
	defer cancel()
	if !it.Edit {
		id, err := c.platform.Post(actx, it.Channel, it.Msg)
		if err != nil {
			return err
		}
		if err := c.reedit(actx, it, id); err != nil {
			return err
		}
		c.settle(it, id)
		return nil
	}
	id, ok := it.sent.id(it.Key)
	if !ok {
		// The post was refused for good: the next start posts it as
		// this edit says, so the edit is not recorded.
		c.svc.log.Warn("edit of a post that was not delivered", "table", it.Table, "key", it.Key)
		return nil
	}
	if err := c.platform.Edit(actx, it.Channel, id, it.Msg); err != nil {
		return err
	}
	c.settle(it, id)
	return nil
}

// reedit makes sure a post that carries later edits shows them. A post
// that may have got through already can come back as the earlier post,
// in the form it was sent in, before the edits were merged into it; so it
// is edited to its final form. The post itself is noted as delivered
// first: a retry finds it again by its key.
func (c *courier) reedit(ctx context.Context, it *item, id string) error {
	if !it.Msg.MaybeSent || len(it.marks) < 2 {
		return nil
	}
	it.sent.set(it.Key, id)
	c.svc.records.add(it.Table, it.Key, id)
	return c.platform.Edit(ctx, it.Channel, id, it.Msg)
}

// settle notes it as delivered, in memory at once and in the store with
// the next batch of records.
func (c *courier) settle(it *item, id string) {
	for _, m := range it.marks {
		v := id
		if m != it.Key {
			v = "" // an edit's mark says only that it happened
		}
		it.sent.set(m, v)
		c.svc.records.add(it.Table, m, v)
	}
}

// pause waits d, or until ctx is done; it reports whether d passed.
func pause(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
