package web

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
)

// Blobs is an optional capability of the Reader: a small key-value store
// (store.DB has it). When the Reader has it, rooms and what was posted in
// them survive a restart; without it they live in memory.
type Blobs interface {
	PutBlob(ctx context.Context, ns, key string, v []byte) error
	GetBlob(ctx context.Context, ns, key string) (v []byte, ok bool, err error)
}

// Where rooms are kept in Blobs.
const (
	blobNS      = "web"
	blobRoomsNS = "web/rooms"
	blobIndex   = "rooms"
)

// Who wrote a post.
const (
	authorBot   = "bot"
	authorAgent = "agent"
	authorUser  = "user"
)

// post is a message shown in a room. Ver is the room's version when it
// last changed, which is how a reconnecting page gets only what is new.
type post struct {
	ID       string        `json:"id"`
	N        int           `json:"n"`
	Ver      uint64        `json:"ver"`
	Kind     string        `json:"kind"`
	Author   string        `json:"author"`
	Text     string        `json:"text"`
	Controls []bot.Control `json:"controls,omitempty"`
	Time     time.Time     `json:"time"`
	Key      string        `json:"key,omitempty"` // bot.Message.Key: posted once per room
}

// room is a table's thread (or the lobby).
type room struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Parent  string    `json:"parent,omitempty"`
	Creator string    `json:"creator,omitempty"` // user ID
	Created time.Time `json:"created"`
	Ver     uint64    `json:"ver"`
	Posts   []*post   `json:"posts"`
}

// rooms holds every room, guarded by mu; changes fire sig and are saved
// to blobs (when there are any) in the order they happened.
type rooms struct {
	mu     sync.Mutex
	byID   map[string]*room
	order  []string
	sig    *signal
	blobs  Blobs
	saveMu sync.Mutex
}

func newRooms(sig *signal, blobs Blobs) *rooms {
	return &rooms{byID: map[string]*room{}, sig: sig, blobs: blobs}
}

// load reads the saved rooms.
func (rs *rooms) load(ctx context.Context) error {
	if rs.blobs == nil {
		return nil
	}
	raw, ok, err := rs.blobs.GetBlob(ctx, blobNS, blobIndex)
	if err != nil || !ok {
		return err
	}
	var ids []string
	if err := json.Unmarshal(raw, &ids); err != nil {
		return fmt.Errorf("decode room index: %w", err)
	}
	for _, id := range ids {
		if err := rs.loadRoom(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

func (rs *rooms) loadRoom(ctx context.Context, id string) error {
	raw, ok, err := rs.blobs.GetBlob(ctx, blobRoomsNS, id)
	if err != nil {
		return fmt.Errorf("load room %s: %w", id, err)
	}
	var r room
	if !ok {
		return nil
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("decode room %s: %w", id, err)
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if _, dup := rs.byID[id]; !dup {
		rs.byID[id] = &r
		rs.order = append(rs.order, id)
	}
	return nil
}

// create adds a room and returns its ID.
func (rs *rooms) create(ctx context.Context, parent, title, creator string, now time.Time) (string, error) {
	id := "r" + randomID(6)
	rs.mu.Lock()
	rs.byID[id] = &room{ID: id, Title: title, Parent: parent, Creator: creator, Created: now}
	rs.order = append(rs.order, id)
	index, err := json.Marshal(rs.order)
	rs.mu.Unlock()
	if err != nil {
		return "", fmt.Errorf("encode room index: %w", err)
	}
	if err := rs.save(ctx, id); err != nil {
		return "", err
	}
	if rs.blobs != nil {
		if err := rs.blobs.PutBlob(ctx, blobNS, blobIndex, index); err != nil {
			return "", fmt.Errorf("save room index: %w", err)
		}
	}
	rs.sig.fire()
	return id, nil
}

// add appends a post to a room and returns its ID.
func (rs *rooms) add(ctx context.Context, roomID string, p post) (string, error) {
	rs.mu.Lock()
	r, ok := rs.byID[roomID]
	if !ok {
		rs.mu.Unlock()
		return "", fmt.Errorf("no room %q", roomID)
	}
	if i := slices.IndexFunc(r.Posts, func(q *post) bool { return p.Key != "" && q.Key == p.Key }); i >= 0 {
		id := r.Posts[i].ID
		rs.mu.Unlock()
		return id, nil // posted before (the bot did not learn it in time)
	}
	r.Ver++
	p.N, p.Ver = len(r.Posts)+1, r.Ver
	p.ID = fmt.Sprintf("%s-%d", roomID, p.N)
	r.Posts = append(r.Posts, &p)
	rs.mu.Unlock()
	rs.sig.fire()
	return p.ID, rs.save(ctx, roomID)
}

// edit replaces a post's text and controls.
func (rs *rooms) edit(ctx context.Context, roomID, postID string, m bot.Message) error {
	rs.mu.Lock()
	r, ok := rs.byID[roomID]
	var found *post
	if ok {
		if i := slices.IndexFunc(r.Posts, func(p *post) bool { return p.ID == postID }); i >= 0 {
			found = r.Posts[i]
		}
	}
	if found == nil {
		rs.mu.Unlock()
		return fmt.Errorf("no message %q in room %q", postID, roomID)
	}
	r.Ver++
	found.Ver, found.Text, found.Controls = r.Ver, m.Text, m.Controls
	rs.mu.Unlock()
	rs.sig.fire()
	return rs.save(ctx, roomID)
}

// save writes a room to blobs. saveMu orders the writes, and the room is
// encoded under it, so a later state is never overwritten by an earlier.
func (rs *rooms) save(ctx context.Context, id string) error {
	if rs.blobs == nil {
		return nil
	}
	rs.saveMu.Lock()
	defer rs.saveMu.Unlock()
	rs.mu.Lock()
	raw, err := json.Marshal(rs.byID[id])
	rs.mu.Unlock()
	if err != nil {
		return fmt.Errorf("encode room %s: %w", id, err)
	}
	if err := rs.blobs.PutBlob(ctx, blobRoomsNS, id, raw); err != nil {
		return fmt.Errorf("save room %s: %w", id, err)
	}
	return nil
}

// info returns a copy of a room's header (no posts).
func (rs *rooms) info(id string) (room, bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r, ok := rs.byID[id]
	if !ok {
		return room{}, false
	}
	return room{ID: r.ID, Title: r.Title, Parent: r.Parent, Creator: r.Creator, Created: r.Created, Ver: r.Ver}, true
}

// since returns copies of the posts of a room changed after version ver,
// in order, and the room's version.
func (rs *rooms) since(id string, ver uint64) ([]post, uint64) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r, ok := rs.byID[id]
	if !ok {
		return nil, 0
	}
	var out []post
	for _, p := range r.Posts {
		if p.Ver > ver {
			out = append(out, *p)
		}
	}
	return out, r.Ver
}

// list returns the headers of every room under parent, oldest first.
func (rs *rooms) list(parent string) []room {
	rs.mu.Lock()
	ids := slices.Clone(rs.order)
	rs.mu.Unlock()
	var out []room
	for _, id := range ids {
		if r, ok := rs.info(id); ok && r.Parent == parent {
			out = append(out, r)
		}
	}
	return out
}

// signal wakes every waiter when something changes.
type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

func newSignal() *signal { return &signal{ch: make(chan struct{})} }

// wait returns a channel closed at the next fire.
func (s *signal) wait() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ch
}

func (s *signal) fire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.ch)
	s.ch = make(chan struct{})
}
