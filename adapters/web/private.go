package web

import (
	"fmt"
	"sync"
	"time"
)

// Bounds of what is kept per user in memory. A user has an inbox only
// once the bot has told them something, which it does only for an act
// made with a valid link (a room's join link, or the lobby's right to
// start tables); an inbox is dropped when it has been idle for inboxIdle,
// and the longest idle goes first when maxInboxes have one.
const (
	maxPrivate = 200 // items per user
	maxFiles   = 10  // uploaded files per user
	maxInboxes = 10000
	inboxIdle  = 24 * time.Hour
)

// Kinds of private items.
const (
	privText = "text"
	privForm = "form"
	privFile = "file"
)

// privItem is something shown to one user only: an ephemeral reply, a
// form to fill in, or a file to download. Seq orders a user's items within
// this process (boot); items do not outlive the process.
type privItem struct {
	Seq     uint64
	Channel string
	Kind    string
	Text    string
	Form    *formView
	File    string // file name, downloaded by Seq
	// Waiting marks a text told while the table waited to start: what
	// it says of the start stops applying once the table has started.
	Waiting bool
}

// inbox is one user's items and files.
type inbox struct {
	items []privItem
	files map[uint64][]byte
	last  time.Time // when it last got an item
}

// watch is the signal of a user whose live streams are open, fired when
// the user gets an item; it goes when the last of them closes.
type watch struct {
	sig     *signal
	streams int
}

// inboxes holds every user's private items and files.
type inboxes struct {
	mu      sync.Mutex
	now     func() time.Time
	seq     uint64
	boxes   map[string]*inbox
	watches map[string]*watch
	swept   time.Time
}

func newInboxes(now func() time.Time) *inboxes {
	return &inboxes{now: now, boxes: map[string]*inbox{}, watches: map[string]*watch{}}
}

// watch returns a function that returns a channel closed when user next
// gets an item, and a function to call when the stream that watches is
// done.
func (in *inboxes) watch(user string) (next func() <-chan struct{}, done func()) {
	in.mu.Lock()
	defer in.mu.Unlock()
	w, ok := in.watches[user]
	if !ok {
		w = &watch{sig: newSignal()}
		in.watches[user] = w
	}
	w.streams++
	return w.sig.wait, func() {
		in.mu.Lock()
		defer in.mu.Unlock()
		if w.streams--; w.streams == 0 {
			delete(in.watches, user)
		}
	}
}

// add gives user an item and returns its sequence number.
func (in *inboxes) add(user string, it privItem, data []byte) uint64 {
	in.mu.Lock()
	now := in.now()
	in.sweep(now)
	in.seq++
	it.Seq = in.seq
	box := in.boxes[user]
	if box == nil {
		in.makeRoom()
		box = &inbox{}
		in.boxes[user] = box
	}
	box.last = now
	box.items = append(box.items, it)
	if len(box.items) > maxPrivate {
		box.items = box.items[len(box.items)-maxPrivate:]
	}
	if data != nil {
		box.keepFile(it.Seq, data)
	}
	w := in.watches[user]
	in.mu.Unlock()
	if w != nil {
		w.sig.fire()
	}
	return it.Seq
}

// sweep drops the inboxes idle for inboxIdle, looking at most once a
// minute.
func (in *inboxes) sweep(now time.Time) {
	if now.Sub(in.swept) < time.Minute {
		return
	}
	in.swept = now
	for user, box := range in.boxes {
		if now.Sub(box.last) >= inboxIdle {
			delete(in.boxes, user)
		}
	}
}

// makeRoom drops the longest idle inbox when maxInboxes are kept.
func (in *inboxes) makeRoom() {
	if len(in.boxes) < maxInboxes {
		return
	}
	oldest := ""
	for user, box := range in.boxes {
		if oldest == "" || box.last.Before(in.boxes[oldest].last) {
			oldest = user
		}
	}
	delete(in.boxes, oldest)
}

// keepFile stores an upload, dropping the user's oldest beyond maxFiles.
func (box *inbox) keepFile(seq uint64, data []byte) {
	if box.files == nil {
		box.files = map[uint64][]byte{}
	}
	box.files[seq] = data
	for len(box.files) > maxFiles {
		oldest := seq
		for s := range box.files {
			oldest = min(oldest, s)
		}
		delete(box.files, oldest)
	}
}

// since returns user's items in channel after seq, and the latest seq.
func (in *inboxes) since(user, channel string, seq uint64) ([]privItem, uint64) {
	in.mu.Lock()
	defer in.mu.Unlock()
	var out []privItem
	if box := in.live(user); box != nil {
		for _, it := range box.items {
			if it.Seq > seq && it.Channel == channel {
				out = append(out, it)
			}
		}
	}
	return out, in.seq
}

// live returns user's inbox unless it has none or it has expired.
func (in *inboxes) live(user string) *inbox {
	box := in.boxes[user]
	if box == nil || in.now().Sub(box.last) >= inboxIdle {
		return nil
	}
	return box
}

// file returns the upload with seq, if user has it.
func (in *inboxes) file(user string, seq uint64) (privItem, []byte, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	var data []byte
	box, ok := in.live(user), false
	if box != nil {
		data, ok = box.files[seq]
	}
	if !ok {
		return privItem{}, nil, fmt.Errorf("no file %d for this user", seq)
	}
	for _, it := range box.items {
		if it.Seq == seq {
			return it, data, nil
		}
	}
	return privItem{File: fmt.Sprintf("export-%d", seq)}, data, nil
}
