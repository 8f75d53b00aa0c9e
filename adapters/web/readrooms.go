package web

import (
	"context"
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
	hs, err := rs.headers(ctx)
	if err != nil {
		return nil, fmt.Errorf("read rooms: %w", err)
	}
	out := map[string][]StoredPost{}
	for _, h := range hs {
		r, err := rs.loadPosts(ctx, h)
		if err != nil {
			return nil, fmt.Errorf("read rooms: %w", err)
		}
		posts := make([]StoredPost, len(r.posts))
		for i, p := range r.posts {
			posts[i] = StoredPost{Key: p.Key, Text: p.Text}
		}
		out[h.ID] = posts
	}
	return out, nil
}
