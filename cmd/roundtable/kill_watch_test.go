package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// stallPolls is how many answered feed polls in a row may pass without
// the scripted person getting anything done before the kill test calls it
// a stall. Every phase of the person's tables closes as soon as the person
// acts (the tables have no one else and long deadlines), so a table that
// is up moves within a few polls of the server answering; the bound counts
// the server's answers, not time, so a slow machine does not trip it.
const stallPolls = 600

// traceLen is how many of the person's last steps a diagnosis shows (and
// half as many of its first).
const traceLen = 40

// watchdog counts the person's answered polls since its last step forward
// and closes stalled once there were too many. It keeps the person's last
// steps for the diagnosis.
type watchdog struct {
	mu      sync.Mutex
	limit   int
	polls   int
	stalled chan struct{}
	first   []string // the person's first steps
	trace   []string // and its last ones
	skipped int      // steps between them
	last    string   // the last feed state noted, to note changes only
	room    string   // the room the person was in when it stalled
	user    string   // the person's user ID, which must not change
}

func newWatchdog(limit int) watchdog {
	return watchdog{limit: limit, stalled: make(chan struct{})}
}

// note adds a step to the trace.
func (w *watchdog) note(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.noteLocked(fmt.Sprintf(format, args...))
}

func (w *watchdog) noteLocked(s string) {
	if len(w.first) < traceLen/2 {
		w.first = append(w.first, s)
		return
	}
	w.trace = append(w.trace, s)
	if len(w.trace) > traceLen {
		w.trace = w.trace[len(w.trace)-traceLen:]
		w.skipped++
	}
}

// polled counts an answered poll of room that showed state; a change of
// state is noted in the trace.
func (w *watchdog) polled(room, state string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if s := room + " " + state; s != w.last {
		w.last = s
		w.noteLocked("feed " + s)
	}
	w.polls++
	if w.polls == w.limit {
		w.room = room
		w.noteLocked(fmt.Sprintf("%d answered polls without progress", w.polls))
		close(w.stalled)
	}
}

// sameUser stops the test when the person's user ID changed: it would no
// longer sit at its tables, and would wait for nothing.
func (w *watchdog) sameUser(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.user == "":
		w.user = id
	case id != w.user && w.polls < w.limit:
		w.noteLocked(fmt.Sprintf("the person's user changed from %s to %s", w.user, id))
		w.polls = w.limit
		close(w.stalled)
	}
}

// progressed starts the count again.
func (w *watchdog) progressed() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.polls < w.limit {
		w.polls = 0
	}
}

// stalledRoom returns the room the person was stuck in.
func (w *watchdog) stalledRoom() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.room
}

// String is the person's trace, oldest first.
func (w *watchdog) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	all := slices.Concat(w.first, []string{fmt.Sprintf("(%d steps)", w.skipped)}, w.trace)
	return strings.Join(all, "\n")
}

// failIfStalled fails the test with a diagnosis when the person's watchdog
// fired: the person's last steps, the stuck table's log tail and room, and
// the tail of serve's output. It stops serve to read its file.
func (p *scriptedPerson) failIfStalled(t *testing.T, c *child, dbPath string) {
	t.Helper()
	select {
	case <-p.watch.stalled:
	default:
		return
	}
	_ = c.cmd.Process.Kill()
	<-c.exited
	t.Fatalf("the kill test stalled: the scripted person made no progress (watchdog: %d answered polls)\n\nthe person's last steps:\n%s\n\n%s\nserve's output (tail):\n%s",
		stallPolls, p.watch.String(), describeRoom(t, dbPath, p.watch.stalledRoom()), tail(c.out.String(), 6000))
}

// describeRoom shows the log tail and the posts of the table in room.
func describeRoom(t *testing.T, dbPath, room string) string {
	t.Helper()
	st := readStored(t, dbPath)
	var b strings.Builder
	for id, evs := range st.logs {
		if evs[0].Data.(roundtable.TableCreated).Config.Labels["channel"] != room {
			continue
		}
		fmt.Fprintf(&b, "table %s (room %s), %d events; the last ones:\n", id, room, len(evs))
		for _, e := range evs[max(0, len(evs)-15):] {
			raw, _ := json.Marshal(e)
			fmt.Fprintf(&b, "  %s\n", raw)
		}
	}
	fmt.Fprintf(&b, "room %s posts (key: text):\n", room)
	for _, p := range st.rooms[room] {
		fmt.Fprintf(&b, "  %s: %.80q\n", p.Key, p.Text)
	}
	return b.String()
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// TestKillWatchdog checks the kill test's watchdog: it fires after its
// bound of answered polls without progress, not before; progress starts
// the count again; a change of the person's user fires it at once.
func TestKillWatchdog(t *testing.T) {
	fired := func(w *watchdog) bool {
		select {
		case <-w.stalled:
			return true
		default:
			return false
		}
	}
	w := newWatchdog(3)
	w.polled("r1", "running 1/message")
	w.polled("r1", "running 1/message")
	w.progressed()
	w.polled("r1", "running 1/proposal")
	w.polled("r1", "running 1/proposal")
	if fired(&w) {
		t.Fatal("fired after 2 polls without progress, bound 3")
	}
	w.polled("r1", "running 1/proposal")
	if !fired(&w) || w.stalledRoom() != "r1" {
		t.Fatalf("not fired (or wrong room %q) after 3 polls without progress", w.stalledRoom())
	}
	w.polled("r1", "running 1/proposal") // closing twice would panic
	if got := w.String(); !strings.Contains(got, "feed r1 running 1/proposal") || !strings.Contains(got, "3 answered polls without progress") {
		t.Errorf("trace:\n%s", got)
	}

	u := newWatchdog(100)
	u.sameUser("a")
	u.sameUser("a")
	if fired(&u) {
		t.Fatal("fired for the same user")
	}
	u.sameUser("b")
	if !fired(&u) || !strings.Contains(u.String(), "user changed from a to b") {
		t.Fatalf("a changed user did not fire the watchdog:\n%s", u.String())
	}
}
