package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// killTarget is how many times TestKillServeLosesNoPost kills serve.
const killTarget = 30

// TestKillServeLosesNoPost runs the real serve (the test binary as a child
// process) with the web channel while a scripted person starts tables and
// acts in them over HTTP, and SIGKILLs the child at random moments at
// least killTarget times. Afterwards every post the tables' logs imply
// (intro, phase openings, revealed messages, round results, the end) is in
// its room exactly once, and every action the server acknowledged is in
// the log exactly once. A person who stops making progress fails the test
// with a diagnosis (kill_watch_test.go) instead of hanging it.
func TestKillServeLosesNoPost(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns many processes")
	}
	dbPath, addr, args := serveWebArgs(t)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := newScriptedPerson("http://" + addr)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); p.run(ctx) }()

	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), 11))
	kills := 0
	for kills < killTarget || p.ended() < 3 {
		if kills > 20*killTarget {
			t.Fatalf("after %d kills only %d tables ended", kills, p.ended())
		}
		c := startChild(t, args)
		p.waitUp(ctx, c.exited)
		// A random moment after the person got something done with this
		// child, so that a slow machine still makes progress.
		p.waitProgress(ctx, c.exited)
		p.failIfStalled(t, c, dbPath)
		select {
		case <-time.After(time.Duration(rng.IntN(300)) * time.Millisecond):
		case <-c.exited:
		}
		c.kill(t)
		kills++
	}
	// A last run, not killed, delivers what is left; the person finishes
	// the table under way.
	p.stopStarting()
	c := startChild(t, args)
	p.waitUp(ctx, c.exited)
	p.waitIdle(ctx)
	p.failIfStalled(t, c, dbPath)
	waitDelivered(ctx, t, p, c, dbPath)
	cancel()
	wg.Wait()
	c.kill(t)

	st := readStored(t, dbPath)
	tables, posts := checkPosts(t, st)
	acked := checkAcked(t, st, p.acknowledged())
	t.Logf("%d kills; %d tables (%d ended); %d posts each exactly once; %d acknowledged actions each exactly once in the log",
		kills, tables, p.ended(), posts, acked)
}

func freeAddr(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// child is a serve process; exited is closed when it has exited.
type child struct {
	cmd    *exec.Cmd
	out    lockedBuffer
	exited chan struct{}
}

func startChild(t testing.TB, args []byte) *child {
	t.Helper()
	c := &child{cmd: exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^$"), exited: make(chan struct{})}
	c.out.wrote = make(chan struct{}, 1)
	c.cmd.Env = append(os.Environ(), childEnv+"="+string(args))
	c.cmd.Stdout, c.cmd.Stderr = &c.out, &c.out
	if dir := os.Getenv("ROUNDTABLE_CHILD_LOGS"); dir != "" { // each child's output kept in DIR too, for a long run's diagnosis
		if f, err := os.CreateTemp(dir, "child-*.log"); err == nil {
			c.cmd.Stdout, c.cmd.Stderr = io.MultiWriter(&c.out, f), io.MultiWriter(&c.out, f)
		}
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = c.cmd.Wait(); close(c.exited) }()
	return c
}

// kill SIGKILLs the child and waits for it; it fails the test if the child
// had exited by itself.
func (c *child) kill(t *testing.T) {
	t.Helper()
	select {
	case <-c.exited:
		t.Fatalf("serve exited by itself:\n%s", c.out.String())
	default:
	}
	_ = c.cmd.Process.Kill()
	<-c.exited
}

// waitDelivered waits until every room the person drove shows its end.
// Polls without progress count towards the person's watchdog.
func waitDelivered(ctx context.Context, t *testing.T, p *scriptedPerson, c *child, dbPath string) {
	for _, room := range p.roomList() {
		for {
			f, err := p.feed(ctx, room)
			if err == nil && f.State.Status == string(roundtable.StatusEnded) && f.has("**The table has ended") {
				break
			}
			if err == nil {
				p.watch.polled(room, fmt.Sprintf("%s %d/%s (%d posts; waiting for the end post)", f.State.Status, f.State.Round, f.State.Phase, len(f.Posts)))
			}
			select {
			case <-ctx.Done():
				t.Fatal("stopped waiting")
			case <-p.watch.stalled:
				p.failIfStalled(t, c, dbPath)
			case <-time.After(20 * time.Millisecond): // polling a live server
			}
		}
	}
}

// checkPosts compares, for every table, the posts its log implies with the
// posts in its room, and returns the numbers of tables and posts.
func checkPosts(t *testing.T, st *stored) (int, int) {
	t.Helper()
	total := 0
	for id, evs := range st.logs {
		want, err := bottest.ImpliedPosts(evs)
		if err != nil {
			t.Fatal(err)
		}
		got, order := map[string]int{}, []string{}
		for _, p := range st.room(t, evs) {
			if p.Key != "" {
				k := strings.TrimPrefix(p.Key, id+"/")
				got[k]++
				order = append(order, k)
			}
		}
		if !slices.Equal(order, want) {
			t.Errorf("table %s: posts in the room, in order:\n%q\nwant:\n%q", id, order, want)
		}
		for _, k := range want {
			if got[k] != 1 {
				t.Errorf("table %s: post %q appears %d times, want once", id, k, got[k])
			}
			delete(got, k)
		}
		for k, n := range got {
			t.Errorf("table %s: %d posts %q the log does not imply", id, n, k)
		}
		total += len(want)
	}
	return len(st.logs), total
}

// checkAcked checks that every acknowledged action is in exactly one event
// of the logs, and returns how many there were.
func checkAcked(t *testing.T, st *stored, acked []string) int {
	t.Helper()
	found := map[string]int{}
	for _, evs := range st.logs {
		for _, e := range evs {
			if i := strings.LastIndex(e.Key, ":"); i >= 0 {
				found[e.Key[i+1:]]++
			}
		}
	}
	for _, id := range acked {
		if found[id] != 1 {
			t.Errorf("acknowledged action %s is in the log %d times, want once", id, found[id])
		}
	}
	return len(acked)
}

// stored is what a stopped serve left in its file: every table's log and
// every web room's posts.
type stored struct {
	logs  map[string][]roundtable.Event
	rooms map[string][]roomPost
}

// roomPost is a web room's post as stored.
type roomPost struct {
	Key  string `json:"key"`
	Text string `json:"text"`
}

func readStored(t *testing.T, path string) *stored {
	t.Helper()
	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return readBackend(t, db)
}

// readBackend reads every table's log and every web room's posts from db.
func readBackend(t *testing.T, db store.Backend) *stored {
	t.Helper()
	ctx := context.Background()
	list, err := db.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := &stored{logs: map[string][]roundtable.Event{}, rooms: map[string][]roomPost{}}
	for _, sum := range list {
		if st.logs[sum.ID], err = db.Load(ctx, sum.ID); err != nil {
			t.Fatal(err)
		}
	}
	rooms, err := web.ReadRooms(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	for id, posts := range rooms {
		for _, p := range posts {
			st.rooms[id] = append(st.rooms[id], roomPost{Key: p.Key, Text: p.Text})
		}
	}
	return st
}

// room returns the posts of the room of the table whose log is evs.
func (st *stored) room(t *testing.T, evs []roundtable.Event) []roomPost {
	t.Helper()
	id := evs[0].Data.(roundtable.TableCreated).Config.Labels["channel"]
	posts, ok := st.rooms[id]
	if !ok {
		t.Fatalf("table %s: room %s not stored", evs[0].Table, id)
	}
	return posts
}

// serveWebArgs returns the database path, the web address and the
// arguments of a serve child on them.
func serveWebArgs(t *testing.T) (string, string, []byte) {
	dbPath := filepath.Join(t.TempDir(), "rt.db")
	addr := freeAddr(t)
	cfg := writeConfig(t, fmt.Sprintf("[store]\npath = %q\n\n[web]\nenabled = \"on\"\nopen_lobby = true\naddr = %q\n", dbPath, addr))
	args, _ := json.Marshal([]string{"--config", cfg, "--log-level", "info", "serve"})
	return dbPath, addr, args
}
