package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// lockedBuffer is an io.Writer safe for the concurrent writes of a server.
// Every write signals wrote, so tests can wait for output.
type lockedBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{}
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case l.wrote <- struct{}{}:
	default:
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// server is a `roundtable serve` running in-process on a config file.
type server struct {
	t      *testing.T
	cancel context.CancelFunc
	done   chan int
	out    *lockedBuffer
}

func startServe(t *testing.T, config string, env map[string]string, extra ...string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{t: t, cancel: cancel, done: make(chan int, 1), out: &lockedBuffer{wrote: make(chan struct{}, 1)}}
	app := &App{Stdin: strings.NewReader(""), Stdout: s.out, Stderr: s.out, Getenv: func(k string) string { return env[k] }}
	go func() {
		s.done <- app.Run(ctx, append([]string{"--config", config, "--log-level", "info", "serve"}, extra...))
	}()
	t.Cleanup(s.stop)
	return s
}

// waitOutput waits until the output matches re and returns the match.
func (s *server) waitOutput(re *regexp.Regexp) []string {
	s.t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		if m := re.FindStringSubmatch(s.out.String()); m != nil {
			return m
		}
		select {
		case <-s.out.wrote:
		case code := <-s.done:
			s.cancel = nil
			s.t.Fatalf("serve exited %d:\n%s", code, s.out.String())
		case <-deadline.C:
			s.t.Fatalf("no output matching %s:\n%s", re, s.out.String())
		}
	}
}

// stop ends the process the way a signal does and waits for it.
func (s *server) stop() {
	if s.cancel == nil {
		return
	}
	s.cancel()
	if code := <-s.done; code != 0 {
		s.t.Errorf("serve exited %d:\n%s", code, s.out.String())
	}
	s.cancel = nil
}

// users is what a test needs of a platform's fake: the users' side.
type users interface {
	Command(ctx context.Context, u bottest.User, channel, name string, opts map[string]string) error
	Say(ctx context.Context, u bottest.User, channel, text string) error
	Click(ctx context.Context, u bottest.User, channel, messageID, controlID string, values ...string) error
	Posts(channel string) []bottest.Post
	Private(u bottest.User) []bottest.Private
	Threads(channel string) []string
	Updates() <-chan struct{}
}

// driver acts as people on a platform and waits for what they see.
type driver struct {
	t  *testing.T
	p  users
	ch string
}

func (d *driver) waitFor(what string, cond func() bool) {
	d.t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for !cond() {
		select {
		case <-d.p.Updates():
		case <-deadline.C:
			var seen []string
			for _, u := range []bottest.User{bottest.Alice, bottest.Bob} {
				for _, p := range d.p.Private(u) {
					seen = append(seen, u.Name+": "+p.Text)
				}
			}
			d.t.Fatalf("timed out waiting for %s; people were shown:\n%s", what, strings.Join(seen, "\n"))
		}
	}
}

func (d *driver) do(what string, f func(ctx context.Context) error) {
	d.t.Helper()
	var err error
	d.waitFor(what, func() bool { err = f(context.Background()); return err == nil })
}

func (d *driver) command(u bottest.User, channel, name string, opts map[string]string) {
	d.t.Helper()
	d.do(name, func(ctx context.Context) error { return d.p.Command(ctx, u, channel, name, opts) })
}

func (d *driver) say(u bottest.User, thread, text string) {
	d.t.Helper()
	d.do("say", func(ctx context.Context) error { return d.p.Say(ctx, u, thread, text) })
}

func (d *driver) post(thread, prefix string) bottest.Post {
	d.t.Helper()
	var found bottest.Post
	d.waitFor(fmt.Sprintf("post %q", prefix), func() bool {
		for _, p := range d.p.Posts(thread) {
			if strings.HasPrefix(p.Text, prefix) {
				found = p
				return true
			}
		}
		return false
	})
	return found
}

func (d *driver) sees(u bottest.User, s string) {
	d.t.Helper()
	d.waitFor(u.Name+" sees "+s, func() bool {
		for _, p := range d.p.Private(u) {
			if strings.Contains(p.Text, s) {
				return true
			}
		}
		return false
	})
}

// start starts a table as Alice, seats Bob, begins it (a table waits for
// its people), and returns the thread.
func (d *driver) start(opts map[string]string) string {
	d.t.Helper()
	before, told := len(d.p.Threads(d.ch)), len(d.p.Private(bottest.Alice))
	d.command(bottest.Alice, d.ch, "start", opts)
	d.waitFor("the table to start", func() bool {
		for _, p := range d.p.Private(bottest.Alice)[told:] {
			if strings.Contains(p.Text, "in its own ") /* thread, or room on the web */ {
				return true
			}
		}
		return false
	})
	d.waitFor("a thread", func() bool { return len(d.p.Threads(d.ch)) > before })
	th := d.p.Threads(d.ch)
	thread := th[len(th)-1]
	d.command(bottest.Bob, thread, "join", nil)
	d.sees(bottest.Bob, "You joined")
	d.command(bottest.Alice, thread, "begin", nil)
	d.sees(bottest.Alice, "The table has started")
	return thread
}

// round plays the people's part of one round; ballots are vote commands.
func (d *driver) round(thread string, r, rounds int, alice, bob string) {
	d.t.Helper()
	head := fmt.Sprintf("**Round %d of %d: ", r, rounds)
	d.post(thread, head+"message")
	d.say(bottest.Alice, thread, fmt.Sprintf("Alice's thoughts for round %d", r))
	d.say(bottest.Bob, thread, fmt.Sprintf("Bob's thoughts for round %d", r))
	d.post(thread, head+"proposal")
	d.command(bottest.Alice, thread, "propose", map[string]string{"text": fmt.Sprintf("Alice's plan %d", r)})
	d.command(bottest.Bob, thread, "propose", map[string]string{"text": fmt.Sprintf("Bob's plan %d", r)})
	d.post(thread, head+"vote")
	d.command(bottest.Alice, thread, "vote", map[string]string{"ballot": alice})
	d.command(bottest.Bob, thread, "vote", map[string]string{"ballot": bob})
	d.post(thread, fmt.Sprintf("**Round %d result**", r))
}

func writeConfig(t testing.TB, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "roundtable.toml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// agentsConfig is the part of a config with two LLM agents on url.
func agentsConfig(dir, url string) string {
	return fmt.Sprintf(`
[store]
path = %q

[web]
enabled = "off"

[bot]
rounds = 2
agents = ["Ada", "Bo"]

[[llm]]
name = "fake"
base_url = %q
model = "test-model"

[[agent]]
name = "Ada"
endpoint = "fake"
background = "A product manager who listens."
goal = "Pick what users ask for most."

[[agent]]
name = "Bo"
endpoint = "fake"
background = "An engineer who values small steps."
goal = "Keep the scope small."
memory = "window"
`, filepath.Join(dir, "rt.db"), url)
}

// checkTables opens the store after serve stopped and checks every table:
// ended, every round decided by four ballots, the agents' model usage kept.
func checkTables(t *testing.T, dbPath string, want int) []*roundtable.State {
	t.Helper()
	db, err := store.Open(dbPath, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	list, err := db.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != want {
		t.Fatalf("%d tables stored, want %d", len(list), want)
	}
	var out []*roundtable.State
	for _, sum := range list {
		evs, err := db.Load(context.Background(), sum.ID)
		if err != nil {
			t.Fatal(err)
		}
		s, err := roundtable.Replay(evs)
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != roundtable.StatusEnded || len(s.Rounds) != 2 {
			t.Errorf("table %s: %s after %d rounds, want ended after 2", s.ID, s.Status, len(s.Rounds))
		}
		tokens := 0
		for _, r := range s.Rounds {
			if r.Tally == nil || r.Tally.Counted+r.Tally.Abstained != 4 {
				t.Errorf("table %s round %d: tally %+v, want 4 ballots (2 people, 2 agents)", s.ID, r.Round, r.Tally)
			}
			for _, u := range r.Usage {
				tokens += u.PromptTokens
			}
		}
		if tokens == 0 {
			t.Errorf("table %s: no model usage recorded", s.ID)
		}
		out = append(out, s)
	}
	return out
}
