package main

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// TestServeQuarantinesDamagedTable damages the stored log of a table that
// serve ran, restarts serve twice, and checks that the table's room is
// told once that it is paused, while another table starts and runs to
// its end.
func TestServeQuarantinesDamagedTable(t *testing.T) {
	ctx, dbPath, args, p, c := servedPerson(t)
	damaged := p.startTable(ctx)
	if damaged == "" {
		t.Fatal("cannot start the table")
	}
	c.kill(t)
	damageLog(t, dbPath)

	for run := range 2 {
		c = startChild(t, args)
		p.waitUp(ctx, c.exited)
		healthy := p.startTable(ctx)
		if healthy == "" {
			t.Fatalf("run %d: cannot start another table", run)
		}
		p.playToEnd(ctx, t, healthy)
		c.kill(t)
		// The room's page cannot show the damaged table (it replays its
		// log too), so the room is read from the file.
		if n := notices(t, dbPath, damaged); n != 1 {
			t.Errorf("run %d: the damaged table's room shows %d notices, want 1", run, n)
		}
	}
}

// servedPerson runs serve with the web channel (the test binary as a
// child process) and a scripted person who has chosen a name.
func servedPerson(t *testing.T) (context.Context, string, []byte, *scriptedPerson, *child) {
	t.Helper()
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dbPath, addr, args := serveWebArgs(t)
	ctx := t.Context()
	p := newScriptedPerson("http://" + addr)
	c := startChild(t, args)
	p.waitUp(ctx, c.exited)
	if !p.named(ctx) {
		t.Fatal("cannot choose a name")
	}
	return ctx, dbPath, args, p, c
}

// notices counts the quarantine notices stored in a web room, reading
// the rooms alone: the file may hold a damaged table.
func notices(t *testing.T, path, room string) int {
	t.Helper()
	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rooms, err := web.ReadRooms(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range rooms[room] {
		if strings.HasPrefix(p.Text, "**This table is paused**") {
			n++
		}
	}
	return n
}

// damageLog appends to the only table of the file a decision in round 0,
// which does not replay.
func damageLog(t *testing.T, path string) {
	t.Helper()
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	list, err := db.Tables(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("want one table, got %d: %v", len(list), err)
	}
	evs, err := db.Load(ctx, list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	bad := roundtable.Event{Table: list[0].ID, Seq: uint64(len(evs)) + 1, Time: time.Now(), Data: roundtable.DecisionMade{}}
	if err := db.Append(ctx, list[0].ID, []roundtable.Event{bad}); err != nil {
		t.Fatal(err)
	}
}

// playToEnd acts in every phase of the table in room until it ends.
func (p *scriptedPerson) playToEnd(ctx context.Context, t *testing.T, room string) {
	t.Helper()
	acted := ""
	for i := 0; ; i++ {
		if i > 2000 {
			t.Fatalf("table in room %s does not end", room)
		}
		f, err := p.feed(ctx, room)
		if err != nil {
			t.Fatal(err)
		}
		pos := fmt.Sprintf("%d/%s", f.State.Round, f.State.Phase)
		switch {
		case f.State.Status == string(roundtable.StatusEnded) && f.has("**The table has ended"):
			return
		case f.State.Status == string(roundtable.StatusRunning) && pos != acted && p.act(ctx, room, f.State.Round, f.State.Phase):
			acted = pos
		default:
			pause(ctx)
		}
	}
}

// TestServeQuarantinesTableOnDamagedPage zeroes the page of the file that
// holds the end of one table's log, as a disk can, and restarts serve: it
// starts (it died at start when the page was read), quarantines that
// table, tells its room once, and another table resumes and runs to its
// end.
func TestServeQuarantinesTableOnDamagedPage(t *testing.T) {
	ctx, dbPath, args, p, c := servedPerson(t)
	damaged := startLong(ctx, t, p)
	p.playToEnd(ctx, t, damaged)
	healthy := p.startTable(ctx)
	if damaged == "" || healthy == "" {
		t.Fatal("cannot start the tables")
	}
	c.kill(t)
	zeroLastPage(t, dbPath, tableOf(t, dbPath, damaged))

	c = startChild(t, args)
	p.waitUp(ctx, c.exited)
	p.playToEnd(ctx, t, healthy)
	c.kill(t)
	if !strings.Contains(c.out.String(), "table quarantined") {
		t.Errorf("serve did not log the quarantine:\n%s", c.out.String())
	}
	if n := notices(t, dbPath, damaged); n != 1 {
		t.Errorf("the damaged table's room shows %d notices, want 1", n)
	}
}

// startLong starts a table of ten rounds, whose log fills several pages,
// and returns its room.
func startLong(ctx context.Context, t *testing.T, p *scriptedPerson) string {
	t.Helper()
	form := url.Values{"nonce": {"long-1"}, "name": {"Alice"}, "topic": {"A long table"},
		"rounds": {"10"}, "mode": {"sealed"}, "agents_set": {"1"}, "start": {"full"}, "seats": {"1"}} // Alice alone: it starts at once
	resp, err := p.post(ctx, "/start", form)
	if err != nil || !strings.HasPrefix(resp.Request.URL.Path, "/r/") {
		t.Fatalf("cannot start the long table: %v", err)
	}
	return strings.TrimPrefix(resp.Request.URL.Path, "/r/")
}

// tableOf returns the table of a web room.
func tableOf(t *testing.T, path, room string) string {
	t.Helper()
	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	id, ok, err := db.Lookup(context.Background(), web.Name+":"+room)
	if err != nil || !ok {
		t.Fatalf("no table in room %s: %v", room, err)
	}
	return id
}

// zeroLastPage zeroes the page of the file at path that holds table's
// last event, after checking that an earlier page holds its first.
func zeroLastPage(t *testing.T, path, table string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	size, mark := os.Getpagesize(), []byte(`"table":"`+table+`"`)
	var pages []int
	for i := 0; i < len(data)/size; i++ {
		if page := data[i*size : (i+1)*size]; bytes.Contains(page, mark) && bytes.Contains(page, []byte(`"type":"table_ended"`)) {
			pages = append(pages, i)
		}
	}
	if len(pages) != 1 || !bytes.Contains(data[:pages[0]*size], append(mark, []byte(`,"seq":1,`)...)) {
		t.Fatalf("pages %v hold the end of table %s's log; want one, after its first event", pages, table)
	}
	clear(data[pages[0]*size : (pages[0]+1)*size])
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
