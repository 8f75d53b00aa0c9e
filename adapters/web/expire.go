package web

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// DefaultRetention is how long a room outlives its table's end unless
// Config.Retention says otherwise: long enough to come back for the
// result, the dashboard and the export, short enough that a server that
// runs for years does not keep every room it ever had. The table's log
// stays in the store; only the room (its posts) goes.
const DefaultRetention = 30 * 24 * time.Hour

// sweepEvery is how often Run looks for rooms to delete.
const sweepEvery = time.Hour

// sweeper deletes expired rooms every sweepEvery until ctx is done.
func (p *Platform) sweeper(ctx context.Context) {
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		if n, err := p.sweep(ctx); err != nil {
			p.log.Warn("delete expired rooms", "err", err)
		} else if n > 0 {
			p.log.Info("deleted expired rooms", "rooms", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// sweep deletes the rooms whose table ended more than Retention ago, and
// the rooms that never got a table and were opened more than Retention
// ago. It returns how many it deleted.
func (p *Platform) sweep(ctx context.Context) (int, error) {
	if p.tables == nil {
		return 0, nil
	}
	ended, err := p.tables.Ended(ctx)
	if err != nil {
		return 0, err
	}
	rooms, err := p.roomList(ctx)
	if err != nil {
		return 0, err
	}
	now, n := p.cfg.Now(), 0
	for _, h := range rooms {
		table, ok, err := p.tables.Lookup(ctx, h.ID)
		if err != nil {
			return n, fmt.Errorf("look up the table of room %s: %w", h.ID, err)
		}
		since, done := ended[table]
		if !ok {
			since, done = h.Created, true
		}
		if !done || now.Sub(since) < p.cfg.Retention {
			continue
		}
		if err := p.rooms.remove(ctx, h.ID); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// remove deletes a room, its posts first: a crash in between leaves a
// header without posts, which the next sweep deletes.
func (rs *rooms) remove(ctx context.Context, id string) error {
	rs.mu.Lock()
	delete(rs.byID, id)
	if i := slices.Index(rs.order, id); i >= 0 {
		rs.order = slices.Delete(rs.order, i, i+1)
	}
	rs.mu.Unlock()
	rs.sig.fire()
	if rs.blobs == nil {
		return nil
	}
	if err := rs.sync(ctx); err != nil { // no queued record outlives its room
		return fmt.Errorf("delete the posts of room %s: %w", id, err)
	}
	if err := rs.blobs.DropBlobs(ctx, blobPostsNS+id); err != nil {
		return fmt.Errorf("delete the posts of room %s: %w", id, err)
	}
	if err := rs.blobs.DeleteBlob(ctx, blobHeadersNS, id); err != nil {
		return fmt.Errorf("delete room %s: %w", id, err)
	}
	return nil
}
