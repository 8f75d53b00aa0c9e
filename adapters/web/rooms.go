package web

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
)

// Blobs is where the web channel keeps its rooms: a small key-value store
// with append-only records beside the tables (store.DB is one). With it,
// rooms and what was posted in them survive a restart; without it (New
// given nil) they live in memory.
//
// A room is stored as its header, written once when it opens, and one
// record per change (a post or an edit) under the room's version, never
// rewritten: a post costs the bytes of that post, whatever the room's
// length. Records of many rooms share transactions (AddBlob is batched).
type Blobs interface {
	GetBlob(ctx context.Context, ns, key string) (v []byte, ok bool, err error)
	// AddBlob stores a record durably; concurrent calls may share a
	// transaction.
	AddBlob(ctx context.Context, ns, key string, v []byte) error
	// EachBlob walks a namespace in key order.
	EachBlob(ctx context.Context, ns string, fn func(key string, v []byte) error) error
	DeleteBlob(ctx context.Context, ns, key string) error
	// DropBlobs removes a namespace and its records.
	DropBlobs(ctx context.Context, ns string) error
}

// Where rooms are kept in Blobs.
const (
	blobHeadersNS = "web/room"   // room ID -> header
	blobPostsNS   = "web/posts/" // + room ID: version (big-endian hex) -> post
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

// header is what a room is, apart from its posts; it never changes.
type header struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Parent  string    `json:"parent,omitempty"`
	Creator string    `json:"creator,omitempty"` // user ID
	Created time.Time `json:"created"`
}

// room is a table's thread (or the lobby): its posts are guarded by its
// own lock, so rooms never wait for each other.
type room struct {
	header
	sig *signal // fired when a post is added or edited

	mu    sync.Mutex
	ver   uint64
	posts []*post
}

func newRoom(h header) *room { return &room{header: h, sig: newSignal()} }

// rooms holds every room. Its lock guards only the map and the order;
// sig fires when a room opens or closes.
type rooms struct {
	mu    sync.RWMutex
	byID  map[string]*room
	order []string
	sig   *signal
	blobs Blobs
	saver *roomWriter // nil without blobs (roomwriter.go)
}

func newRooms(sig *signal, blobs Blobs) *rooms {
	rs := &rooms{byID: map[string]*room{}, sig: sig, blobs: blobs}
	if blobs != nil {
		rs.saver = newRoomWriter(blobs, slog.New(slog.DiscardHandler))
	}
	return rs
}

// logTo sets where failures to save records are logged.
func (rs *rooms) logTo(log *slog.Logger) {
	if rs.saver != nil {
		rs.saver.log = log
	}
}

func (rs *rooms) get(id string) (*room, bool) {
	rs.mu.RLock()
	defer rs.mu.RUnlock()
	r, ok := rs.byID[id]
	return r, ok
}

// put adds a room in memory, unless there is one with its ID.
func (rs *rooms) put(r *room) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if _, dup := rs.byID[r.ID]; !dup {
		rs.byID[r.ID] = r
		rs.order = append(rs.order, r.ID)
	}
}

// create adds a room and returns its ID.
func (rs *rooms) create(ctx context.Context, parent, title, creator string, now time.Time) (string, error) {
	h := header{ID: "r" + randomID(6), Title: title, Parent: parent, Creator: creator, Created: now}
	if rs.blobs != nil {
		raw, err := json.Marshal(h)
		if err != nil {
			return "", fmt.Errorf("encode room %s: %w", h.ID, err)
		}
		if err := rs.blobs.AddBlob(ctx, blobHeadersNS, h.ID, raw); err != nil {
			return "", fmt.Errorf("save room %s: %w", h.ID, err)
		}
	}
	rs.put(newRoom(h))
	rs.sig.fire()
	return h.ID, nil
}

// add appends a post to a room and returns its ID.
func (rs *rooms) add(ctx context.Context, roomID string, p post) (string, error) {
	r, ok := rs.get(roomID)
	if !ok {
		return "", fmt.Errorf("no room %q", roomID)
	}
	r.mu.Lock()
	if i := slices.IndexFunc(r.posts, func(q *post) bool { return p.Key != "" && q.Key == p.Key }); i >= 0 {
		id := r.posts[i].ID
		r.mu.Unlock()
		return id, nil // posted before (the bot did not learn it in time)
	}
	r.ver++
	p.N, p.Ver = len(r.posts)+1, r.ver
	p.ID = fmt.Sprintf("%s-%d", roomID, p.N)
	r.posts = append(r.posts, &p)
	rec := p
	r.mu.Unlock()
	r.sig.fire()
	return p.ID, rs.save(ctx, roomID, rec)
}

// edit replaces a post's text and controls.
func (rs *rooms) edit(ctx context.Context, roomID, postID string, m bot.Message) error {
	r, ok := rs.get(roomID)
	if !ok {
		return fmt.Errorf("no message %q in room %q", postID, roomID)
	}
	r.mu.Lock()
	i := slices.IndexFunc(r.posts, func(p *post) bool { return p.ID == postID })
	if i < 0 {
		r.mu.Unlock()
		return fmt.Errorf("no message %q in room %q", postID, roomID)
	}
	r.ver++
	found := r.posts[i]
	found.Ver, found.Text, found.Controls = r.ver, m.Text, m.Controls
	rec := *found
	r.mu.Unlock()
	r.sig.fire()
	return rs.save(ctx, roomID, rec)
}

// save queues a post's new state for the room's records (the room writer
// writes it with others; Platform.Sync waits for it). Records are keyed by
// version, so concurrent saves may be queued in any order.
func (rs *rooms) save(_ context.Context, roomID string, p post) error {
	if rs.saver == nil {
		return nil
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode post %s: %w", p.ID, err)
	}
	rs.saver.queue(blobPostsNS+roomID, verKey(p.Ver), raw)
	return nil
}

// sync returns once every record saved before it is durable.
func (rs *rooms) sync(ctx context.Context) error {
	if rs.saver == nil {
		return nil
	}
	return rs.saver.sync(ctx)
}

// verKey is a version as a key that sorts bytewise in version order.
func verKey(v uint64) string {
	return hex.EncodeToString(binary.BigEndian.AppendUint64(nil, v))
}

// info returns a room's header.
func (rs *rooms) info(id string) (header, bool) {
	r, ok := rs.get(id)
	if !ok {
		return header{}, false
	}
	return r.header, true
}

// since returns copies of the posts of a room changed after version ver,
// in order, and the room's version.
func (rs *rooms) since(id string, ver uint64) ([]post, uint64) {
	r, ok := rs.get(id)
	if !ok {
		return nil, 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []post
	for _, p := range r.posts {
		if p.Ver > ver {
			out = append(out, *p)
		}
	}
	return out, r.ver
}

// wait returns a channel closed at the room's next change (nil, which
// never fires, for an unknown room).
func (rs *rooms) wait(id string) <-chan struct{} {
	if r, ok := rs.get(id); ok {
		return r.sig.wait()
	}
	return nil
}

// list returns the headers of every room under parent, oldest first.
func (rs *rooms) list(parent string) []header {
	rs.mu.RLock()
	defer rs.mu.RUnlock()
	var out []header
	for _, id := range rs.order {
		if r := rs.byID[id]; r.Parent == parent {
			out = append(out, r.header)
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
