package web

import (
	"context"
	"encoding/json"
	"fmt"
)

// StoredPost is a post of a web room as the database holds it: the bot's
// delivery key (empty for posts that were not the bot's) and the text in
// its latest form.
type StoredPost struct {
	Key  string
	Text string
}

// ReadRooms returns every stored room's posts in order, by room ID. It only
// reads, so it works on a read-only database: audits and tests use it to see
// what the channel showed, without running the channel.
func ReadRooms(ctx context.Context, blobs Blobs) (map[string][]StoredPost, error) {
	rs := newRooms(newSignal(), blobs)
	out := map[string][]StoredPost{}
	err := blobs.EachBlob(ctx, blobHeadersNS, func(id string, raw []byte) error {
		var h header
		if err := json.Unmarshal(raw, &h); err != nil {
			return fmt.Errorf("decode room %s: %w", id, err)
		}
		r, err := rs.loadPosts(ctx, h)
		if err != nil {
			return err
		}
		posts := make([]StoredPost, len(r.posts))
		for i, p := range r.posts {
			posts[i] = StoredPost{Key: p.Key, Text: p.Text}
		}
		out[h.ID] = posts
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read rooms: %w", err)
	}
	return out, nil
}
