package web

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// ensure loads room id from the store unless it is in memory.
func (rs *rooms) ensure(ctx context.Context, id string) error {
	if _, ok := rs.get(id); ok {
		return nil
	}
	return rs.reload(ctx, id)
}

// reload reads room id again from the store, as the process that served
// it last left it: its posts replace those in memory, in place, and its
// waiters wake. A room the store does not hold is left as it is.
func (rs *rooms) reload(ctx context.Context, id string) error {
	if rs.blobs == nil || id == Lobby {
		return nil
	}
	if err := rs.sync(ctx); err != nil { // what this process queued of it is stored first
		return fmt.Errorf("reload room %s: %w", id, err)
	}
	raw, ok, err := rs.blobs.GetBlob(ctx, blobHeadersNS, id)
	if err != nil || !ok {
		return err
	}
	var h header
	if err := json.Unmarshal(raw, &h); err != nil {
		return fmt.Errorf("decode room %s: %w", id, err)
	}
	fresh, err := rs.loadPosts(ctx, h)
	if err != nil {
		return err
	}
	r, had := rs.get(id)
	if !had {
		rs.put(fresh)
		rs.sig.fire()
		return nil
	}
	r.mu.Lock()
	r.posts, r.ver = fresh.posts, fresh.ver
	r.mu.Unlock()
	r.sig.fire()
	return nil
}

// forget drops room id from memory (its records stay in the store) and
// wakes its waiters.
func (rs *rooms) forget(id string) {
	if id == Lobby {
		return
	}
	rs.mu.Lock()
	r := rs.byID[id]
	delete(rs.byID, id)
	if i := slices.Index(rs.order, id); i >= 0 {
		rs.order = slices.Delete(rs.order, i, i+1)
	}
	rs.mu.Unlock()
	if r != nil {
		r.sig.fire()
	}
	rs.sig.fire()
}

// roomList returns the headers of the rooms under the lobby, oldest
// first: those in memory, or, when several processes share the store,
// every room the store holds.
func (p *Platform) roomList(ctx context.Context) ([]header, error) {
	if !p.cfg.Shared || p.rooms.blobs == nil {
		return p.rooms.list(Lobby), nil
	}
	hs, err := p.rooms.headers(ctx)
	if err != nil {
		return nil, fmt.Errorf("list rooms: %w", err)
	}
	hs = slices.DeleteFunc(hs, func(h header) bool { return h.Parent != Lobby })
	slices.SortStableFunc(hs, func(a, b header) int { return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID)) })
	return hs, nil
}

// loadRooms reads the saved rooms at Run: every one, or, when several
// processes share the store, none (each is loaded when this process
// serves its table; rooms saved by earlier versions are converted).
func (p *Platform) loadRooms(ctx context.Context) error {
	if !p.cfg.Shared {
		return p.rooms.load(ctx)
	}
	if p.rooms.blobs == nil {
		return nil
	}
	return p.rooms.migrate(ctx)
}

// gone reports whether a room's live stream must end: another process
// serves its table now.
func (p *Platform) gone(room string) bool {
	if !p.cfg.Shared || room == Lobby {
		return false
	}
	_, ok := p.rooms.get(room)
	return !ok
}
