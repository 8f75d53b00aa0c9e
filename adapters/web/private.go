package web

import (
	"fmt"
	"sync"
)

// Bounds of what is kept per user in memory.
const (
	maxPrivate = 200 // items per user
	maxFiles   = 10  // uploaded files per user
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
}

// inboxes holds every user's private items and files.
type inboxes struct {
	mu    sync.Mutex
	seq   uint64
	items map[string][]privItem
	files map[string]map[uint64][]byte
	sigs  map[string]*signal // per user: fired when the user gets an item
}

func newInboxes() *inboxes {
	return &inboxes{items: map[string][]privItem{}, files: map[string]map[uint64][]byte{}, sigs: map[string]*signal{}}
}

// wait returns a channel closed when user next gets an item.
func (in *inboxes) wait(user string) <-chan struct{} {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.signal(user).wait()
}

func (in *inboxes) signal(user string) *signal {
	s, ok := in.sigs[user]
	if !ok {
		s = newSignal()
		in.sigs[user] = s
	}
	return s
}

// add gives user an item and returns its sequence number.
func (in *inboxes) add(user string, it privItem, data []byte) uint64 {
	in.mu.Lock()
	in.seq++
	it.Seq = in.seq
	list := append(in.items[user], it)
	if len(list) > maxPrivate {
		list = list[len(list)-maxPrivate:]
	}
	in.items[user] = list
	if data != nil {
		in.keepFile(user, it.Seq, data)
	}
	sig := in.signal(user)
	in.mu.Unlock()
	sig.fire()
	return it.Seq
}

// keepFile stores an upload, dropping the user's oldest beyond maxFiles.
func (in *inboxes) keepFile(user string, seq uint64, data []byte) {
	fs := in.files[user]
	if fs == nil {
		fs = map[uint64][]byte{}
		in.files[user] = fs
	}
	fs[seq] = data
	for len(fs) > maxFiles {
		oldest := seq
		for s := range fs {
			oldest = min(oldest, s)
		}
		delete(fs, oldest)
	}
}

// since returns user's items in channel after seq, and the latest seq.
func (in *inboxes) since(user, channel string, seq uint64) ([]privItem, uint64) {
	in.mu.Lock()
	defer in.mu.Unlock()
	var out []privItem
	for _, it := range in.items[user] {
		if it.Seq > seq && it.Channel == channel {
			out = append(out, it)
		}
	}
	return out, in.seq
}

// file returns the upload with seq, if user has it.
func (in *inboxes) file(user string, seq uint64) (privItem, []byte, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	data, ok := in.files[user][seq]
	if !ok {
		return privItem{}, nil, fmt.Errorf("no file %d for this user", seq)
	}
	for _, it := range in.items[user] {
		if it.Seq == seq {
			return it, data, nil
		}
	}
	return privItem{File: fmt.Sprintf("export-%d", seq)}, data, nil
}
