package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// TestServeQuarantinesDamagedTable damages the stored log of a table that
// serve ran, restarts serve twice, and checks that the table's room is
// told once that it is paused, while another table starts and runs to
// its end.
func TestServeQuarantinesDamagedTable(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dbPath, addr, args := serveWebArgs(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := newScriptedPerson("http://" + addr)

	c := startChild(t, args)
	p.waitUp(ctx, c.exited)
	if !p.named(ctx) {
		t.Fatal("cannot choose a name")
	}
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

// notices counts the quarantine notices stored in a web room.
func notices(t *testing.T, path, room string) int {
	t.Helper()
	n := 0
	for _, p := range readStored(t, path).rooms[room] {
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
