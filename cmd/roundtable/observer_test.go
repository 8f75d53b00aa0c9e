package main

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store/etcdstore"
)

// observer follows a fleet's store from outside, through an etcd watch,
// and notes when things became durable there: who owns each table, each
// table's events (phase deadlines and closes), and each room's posts.
type observer struct {
	db   *etcdstore.DB
	stop context.CancelFunc
	done chan struct{}

	mu      sync.Mutex
	changed chan struct{} // closed and replaced at every change
	owner   map[string]ownership
	tables  map[string]*observed
	rooms   map[string]string      // room → table
	posts   map[string][]time.Time // room → when each post was first stored
	closes  []time.Duration        // phase deadline → PhaseClosed durable
	ends    map[string]bool        // tables whose last post (the intro's final edit) is delivered
}

// ownership is a table's owner since a moment.
type ownership struct {
	member string
	since  time.Time
}

// observed is what the observer knows of one table.
type observed struct {
	status   roundtable.Status
	deadline map[roundtable.Position]time.Time
}

func newObserver(t testing.TB, db *etcdstore.DB) *observer {
	ctx, stop := context.WithCancel(context.Background())
	o := &observer{db: db, stop: stop, done: make(chan struct{}), changed: make(chan struct{}),
		owner: map[string]ownership{}, tables: map[string]*observed{}, rooms: map[string]string{}, posts: map[string][]time.Time{}, ends: map[string]bool{}}
	go o.follow(ctx)
	t.Cleanup(func() { stop(); <-o.done })
	return o
}

// follow watches the store from its first revision until ctx ends,
// watching again from where it was when a watch breaks off (a member
// that lost its leader, under load).
func (o *observer) follow(ctx context.Context) {
	defer close(o.done)
	var rev int64
	for ctx.Err() == nil {
		wch := o.db.Client().Watch(ctx, o.db.Prefix(), clientv3.WithPrefix(), clientv3.WithRev(rev+1))
		for resp := range wch {
			if resp.Err() != nil {
				break
			}
			now := time.Now()
			o.mu.Lock()
			for _, ev := range resp.Events {
				o.note(ev, now)
			}
			close(o.changed)
			o.changed = make(chan struct{})
			o.mu.Unlock()
			rev = max(rev, resp.Header.Revision)
		}
	}
}

// note takes in one change of the store; the caller holds mu.
func (o *observer) note(ev *clientv3.Event, now time.Time) {
	key := strings.TrimPrefix(string(ev.Kv.Key), o.db.Prefix())
	kind, rest, _ := strings.Cut(key, "/")
	switch kind {
	case "own":
		table, _ := url.PathUnescape(rest)
		if ev.Type == mvccpb.DELETE {
			delete(o.owner, table)
		} else if o.owner[table].member != string(ev.Kv.Value) {
			o.owner[table] = ownership{member: string(ev.Kv.Value), since: now}
		}
	case "log":
		if ev.Type == mvccpb.PUT && ev.IsCreate() {
			var e roundtable.Event
			if json.Unmarshal(ev.Kv.Value, &e) == nil {
				o.event(e, now)
			}
		}
	case "bind":
		if room, ok := strings.CutPrefix(rest, "web:"); ok && ev.Type == mvccpb.PUT {
			o.rooms[room] = string(ev.Kv.Value)
		}
	case "blob":
		ns, _, _ := strings.Cut(rest, "/")
		ns, _ = url.PathUnescape(ns)
		if room, ok := strings.CutPrefix(ns, "web/posts/"); ok && ev.Type == mvccpb.PUT && ev.IsCreate() {
			o.posts[room] = append(o.posts[room], now)
		}
		if table, ok := strings.CutSuffix(strings.TrimPrefix(rest, "posts/"), "/intro#end"); ok && ns == "posts" {
			o.ends[table] = true
		}
	}
}

// event takes in one of a table's events.
func (o *observer) event(e roundtable.Event, now time.Time) {
	tb := o.tables[e.Table]
	if tb == nil {
		tb = &observed{deadline: map[roundtable.Position]time.Time{}}
		o.tables[e.Table] = tb
	}
	switch d := e.Data.(type) {
	case roundtable.TableCreated:
		tb.status = roundtable.StatusCreated
	case roundtable.PhaseOpened:
		tb.status = roundtable.StatusRunning
		if !d.Deadline.IsZero() {
			tb.deadline[roundtable.Position{Round: d.Round, Phase: d.Phase}] = d.Deadline
		}
	case roundtable.PhaseClosed:
		pos := roundtable.Position{Round: d.Round, Phase: d.Phase}
		if dl, ok := tb.deadline[pos]; ok && d.Reason == roundtable.ClosedDeadline {
			o.closes = append(o.closes, now.Sub(dl))
		}
		delete(tb.deadline, pos)
	case roundtable.TableEnded:
		tb.status = roundtable.StatusEnded
	}
}

// running returns the tables that are running and owned by member.
func (o *observer) running(member string) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []string
	for id, tb := range o.tables {
		if tb.status == roundtable.StatusRunning && o.owner[id].member == member {
			out = append(out, id)
		}
	}
	return out
}

// live counts the tables that are not over.
func (o *observer) live() int { return len(o.liveTables()) }

// liveTables lists the tables that are not over.
func (o *observer) liveTables() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []string
	for id, tb := range o.tables {
		if tb.status != roundtable.StatusEnded {
			out = append(out, id)
		}
	}
	return out
}

// undelivered counts the ended tables whose last post is not out.
func (o *observer) undelivered() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 0
	for id, tb := range o.tables {
		if tb.status == roundtable.StatusEnded && !o.ends[id] {
			n++
		}
	}
	return n
}

// takenOver waits until every table is owned by a member other than gone
// (or has ended), and returns when each was taken, by table.
func (o *observer) takenOver(ctx context.Context, tables []string, gone string) (map[string]time.Time, bool) {
	out := map[string]time.Time{}
	for {
		o.mu.Lock()
		for _, id := range tables {
			if w := o.owner[id]; w.member != "" && w.member != gone {
				out[id] = w.since
			} else if o.tables[id].status == roundtable.StatusEnded {
				out[id] = time.Time{}
			}
		}
		changed := o.changed
		o.mu.Unlock()
		if len(out) == len(tables) {
			return out, true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return out, false
		}
	}
}

// firstPostAfter returns when the table's room got its first post after
// at, waiting for it until ctx ends.
func (o *observer) firstPostAfter(ctx context.Context, table string, at time.Time) (time.Time, bool) {
	for {
		o.mu.Lock()
		var room string
		for r, id := range o.rooms {
			if id == table {
				room = r
			}
		}
		for _, pt := range o.posts[room] {
			if pt.After(at) {
				o.mu.Unlock()
				return pt, true
			}
		}
		changed := o.changed
		o.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return time.Time{}, false
		}
	}
}

// closeLateness returns how late every deadline close was, so far.
func (o *observer) closeLateness() []time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]time.Duration(nil), o.closes...)
}

// waitCloses waits until n deadline closes have been seen in all, and
// reports whether they were before ctx ended.
func (o *observer) waitCloses(ctx context.Context, n int) bool {
	for {
		o.mu.Lock()
		seen, changed := len(o.closes), o.changed
		o.mu.Unlock()
		if seen >= n {
			return true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		}
	}
}
