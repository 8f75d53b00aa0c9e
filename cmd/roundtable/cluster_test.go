package main

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store/etcdstore"
)

// webURL is how serve says where its web channel listens.
var webURL = regexp.MustCompile(`web channel at (http://\S+)`)

// TestTwoServesShareTheTables runs two serves on one etcd store behind a
// load balancer that sends each request to either: a person starts tables
// and acts in them through it, whichever process serves the table; one
// process stops halfway and the other takes its tables over. Every post
// is in its room once, and every acknowledged act in the log once.
func TestTwoServesShareTheTables(t *testing.T) {
	cfg := etcdConfig(t, "lease_ttl = \"10s\"\n\n[web]\nopen_lobby = true\n")
	lb := newBalancer(t)
	a := startServe(t, cfg, nil, "--web-addr", "127.0.0.1:0")
	b := startServe(t, cfg, nil, "--web-addr", "127.0.0.1:0")
	lb.set("a", strings.TrimSuffix(a.waitOutput(webURL)[1], "/"))
	lb.set("b", strings.TrimSuffix(b.waitOutput(webURL)[1], "/"))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := newScriptedPerson(lb.URL())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); p.run(ctx) }()
	waitEnded(ctx, t, p, 2)
	db := etcdCluster(t).Open(t, etcdstore.Options{Prefix: etcdPrefix(t, cfg), ReadOnly: true})
	waitOwnedBy(ctx, t, p, db, memberOf(a))
	lb.set("a", "")
	a.stop() // its table under way goes to b at once
	waitEnded(ctx, t, p, p.ended()+2)
	if !strings.Contains(b.out.String(), "taking table over") {
		t.Errorf("b took no table over:\n%s", b.out.String())
	}
	p.stopStarting()
	p.waitIdle(ctx)
	waitRoomsEnded(ctx, t, p)
	cancel()
	wg.Wait()
	b.stop()

	st := readBackend(t, db)
	tables, posts := checkPosts(t, st)
	acked := checkAcked(t, st, p.acknowledged())
	t.Logf("%d tables; %d posts each exactly once; %d acknowledged acts each exactly once", tables, posts, acked)
}

// waitEnded waits until the person has seen n of its tables end.
func waitEnded(ctx context.Context, t *testing.T, p *scriptedPerson, n int) {
	t.Helper()
	for p.ended() < n {
		select {
		case <-p.watch.stalled:
			t.Fatalf("the person stalled:\n%s", p.watch.String())
		case <-ctx.Done():
			t.Fatal("stopped waiting")
		case <-time.After(20 * time.Millisecond): // polling the person
		}
	}
}

// waitRoomsEnded waits until every room the person drove shows its end.
func waitRoomsEnded(ctx context.Context, t *testing.T, p *scriptedPerson) {
	t.Helper()
	for _, room := range p.roomList() {
		for {
			f, err := p.feed(ctx, room)
			if err == nil && f.State.Status == string(roundtable.StatusEnded) && f.has("**The table has ended") {
				break
			}
			if err == nil {
				p.watch.polled(room, f.State.Status+" (waiting for the end post)")
			}
			select {
			case <-p.watch.stalled:
				t.Fatalf("room %s never showed its end:\n%s", room, p.watch.String())
			case <-ctx.Done():
				t.Fatal("stopped waiting")
			case <-time.After(20 * time.Millisecond): // polling a live server
			}
		}
	}
}

// etcdPrefix is the store prefix a config written by etcdConfig names.
func etcdPrefix(t *testing.T, cfg string) string {
	t.Helper()
	c, err := LoadConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c.Store.Prefix
}

// memberRe is how serve names its member ID in the cluster.
var memberRe = regexp.MustCompile(`joined the cluster" member=(\w+)`)

// memberOf returns the member ID of a serve on etcd.
func memberOf(s *server) string { return s.waitOutput(memberRe)[1] }

// owner returns the member that owns table in the store db, or "".
func owner(t *testing.T, db *etcdstore.DB, table string) string {
	t.Helper()
	resp, err := db.Client().Get(context.Background(), db.Prefix()+"own/"+table)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Kvs) == 0 {
		return ""
	}
	return string(resp.Kvs[0].Value)
}

// waitOwnedBy waits until the person plays at a table member owns.
func waitOwnedBy(ctx context.Context, t *testing.T, p *scriptedPerson, db *etcdstore.DB, member string) {
	t.Helper()
	for {
		if rooms := p.roomList(); len(rooms) > 0 {
			room := rooms[len(rooms)-1]
			id, ok, err := db.Lookup(ctx, "web:"+room)
			if err == nil && ok && owner(t, db, id) == member {
				if f, err := p.feed(ctx, room); err == nil && f.State.Status == string(roundtable.StatusRunning) {
					return
				}
			}
		}
		select {
		case <-p.watch.stalled:
			t.Fatalf("the person stalled:\n%s", p.watch.String())
		case <-ctx.Done():
			t.Fatal("stopped waiting")
		case <-time.After(5 * time.Millisecond): // polling the person
		}
	}
}
