package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Rooms saved by earlier versions: an index of room IDs, and each room
// rewritten whole on every post. load converts them once.
const (
	legacyNS      = "web"
	legacyIndex   = "rooms"
	legacyRoomsNS = "web/rooms"
)

// load reads the saved rooms: every header, then each room's records in
// version order. A room whose records lie under a damaged page of the
// database is left out, and the others load: the error then reports the
// damage (a *roundtable.DamageError).
func (rs *rooms) load(ctx context.Context) error {
	if rs.blobs == nil {
		return nil
	}
	if err := rs.migrate(ctx); err != nil {
		return err
	}
	hs, err := rs.headers(ctx)
	if err != nil {
		return fmt.Errorf("load rooms: %w", err)
	}
	var damaged []error
	for _, h := range hs {
		r, err := rs.loadPosts(ctx, h)
		if roundtable.IsDamage(err) {
			damaged = append(damaged, err)
			continue
		}
		if err != nil {
			return err
		}
		rs.put(r)
	}
	return errors.Join(damaged...)
}

// headers reads every saved room's header.
func (rs *rooms) headers(ctx context.Context) ([]header, error) {
	var hs []header
	err := rs.blobs.EachBlob(ctx, blobHeadersNS, func(id string, raw []byte) error {
		var h header
		if err := json.Unmarshal(raw, &h); err != nil {
			return fmt.Errorf("decode room %s: %w", id, err)
		}
		hs = append(hs, h)
		return nil
	})
	return hs, err
}

// loadPosts folds a room's records: each is a post's state at a version;
// the latest state of each post wins.
func (rs *rooms) loadPosts(ctx context.Context, h header) (*room, error) {
	r := newRoom(h)
	byN, last := map[int]*post{}, 0
	err := rs.blobs.EachBlob(ctx, blobPostsNS+h.ID, func(_ string, raw []byte) error {
		var p post
		if err := json.Unmarshal(raw, &p); err != nil {
			return fmt.Errorf("decode a post of room %s: %w", h.ID, err)
		}
		byN[p.N] = &p
		r.ver, last = max(r.ver, p.Ver), max(last, p.N)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load room %s: %w", h.ID, err)
	}
	for n := 1; n <= last; n++ { // a post lost in a crash leaves a gap, not a hole
		if p, ok := byN[n]; ok {
			r.posts = append(r.posts, p)
		}
	}
	return r, nil
}

// legacyRoom is a room as earlier versions saved it.
type legacyRoom struct {
	header
	Posts []*post `json:"posts"`
}

// migrate rewrites rooms saved by earlier versions as headers and
// records, then forgets the old index (the old room blobs are dropped).
func (rs *rooms) migrate(ctx context.Context) error {
	raw, ok, err := rs.blobs.GetBlob(ctx, legacyNS, legacyIndex)
	if err != nil || !ok {
		return err
	}
	var ids []string
	if err := json.Unmarshal(raw, &ids); err != nil {
		return fmt.Errorf("decode the old room index: %w", err)
	}
	for _, id := range ids {
		if err := rs.migrateRoom(ctx, id); err != nil {
			return err
		}
	}
	if err := rs.blobs.DeleteBlob(ctx, legacyNS, legacyIndex); err != nil {
		return fmt.Errorf("forget the old room index: %w", err)
	}
	return rs.blobs.DropBlobs(ctx, legacyRoomsNS)
}

func (rs *rooms) migrateRoom(ctx context.Context, id string) error {
	raw, ok, err := rs.blobs.GetBlob(ctx, legacyRoomsNS, id)
	if err != nil || !ok {
		return err
	}
	var old legacyRoom
	if err := json.Unmarshal(raw, &old); err != nil {
		return fmt.Errorf("decode old room %s: %w", id, err)
	}
	for _, p := range old.Posts {
		if err := rs.save(ctx, id, *p); err != nil {
			return err
		}
	}
	if err := rs.sync(ctx); err != nil { // the posts are saved before the old room goes
		return fmt.Errorf("convert room %s: %w", id, err)
	}
	h, err := json.Marshal(old.header)
	if err != nil {
		return fmt.Errorf("encode room %s: %w", id, err)
	}
	if err := rs.blobs.AddBlob(ctx, blobHeadersNS, id, h); err != nil {
		return fmt.Errorf("save room %s: %w", id, err)
	}
	return nil
}
