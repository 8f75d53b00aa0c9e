package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// damagedTables are the tables of damageFixture.
var damagedTables = []string{"t1", "t2", "t3", "t4"}

// damageFixture writes a real database of four tables of six rounds
// each (their logs, index entries, snapshots and archived rounds), with
// bindings and blobs, and returns its path, its page size, and the pages
// under each table's own buckets.
func damageFixture(t *testing.T) (string, int, map[uint64]string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fixture.db")
	db, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	clock := roundtabletest.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	for _, id := range damagedTables {
		if _, err := roundtabletest.PlayTable(ctx, db, clock, id, 6); err != nil {
			t.Fatal(err)
		}
		if err := db.Bind(ctx, "web:"+id, id); err != nil {
			t.Fatal(err)
		}
		if err := db.PutBlob(ctx, "posts", id, []byte(strings.Repeat("post ", 100))); err != nil {
			t.Fatal(err)
		}
	}
	owner := map[uint64]string{}
	size := db.bolt.Info().PageSize
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	err = db.bolt.View(func(tx *bolt.Tx) error {
		for _, id := range damagedTables {
			for _, parent := range [][]byte{bucketTables, bucketSnapRounds} {
				if b := tx.Bucket(parent).Bucket([]byte(id)); b != nil {
					for _, p := range pagesUnder(data, size, uint64(b.Root())) {
						owner[p] = id
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path, size, owner
}

// pagesUnder returns the pages of the bucket tree whose root is page
// root of the file data (none for an inline bucket), reading bbolt's page
// layout: a 16-byte header (id, flags, count, overflow), then on a
// branch page 16-byte elements whose last 8 bytes are a child's page.
func pagesUnder(data []byte, size int, root uint64) []uint64 {
	if root == 0 {
		return nil
	}
	off := int(root) * size
	flags := binary.LittleEndian.Uint16(data[off+8:])
	count := int(binary.LittleEndian.Uint16(data[off+10:]))
	overflow := binary.LittleEndian.Uint32(data[off+12:])
	var out []uint64
	for i := range uint64(overflow) + 1 {
		out = append(out, root+i)
	}
	if flags&0x01 != 0 { // a branch page
		for i := range count {
			out = append(out, pagesUnder(data, size, binary.LittleEndian.Uint64(data[off+16+i*16+8:]))...)
		}
	}
	return out
}

// TestDamagedPagesGiveErrorsNotPanics damages each page of a real
// database in turn, zeroed or scrambled, and reads the copy as the
// commands do (open, list, load every table; open for writing and append
// to a table). Nothing panics; every error names the file or a table;
// every table is listed or named damaged; and when the page is one
// table's own, every other table is listed and loads whole, and stays
// writable.
func TestDamagedPagesGiveErrorsNotPanics(t *testing.T) {
	path, size, owner := damageFixture(t)
	pristine, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	db, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range damagedTables {
		evs, err := db.Load(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		want[id] = len(evs)
	}
	db.Close()
	pages, own := len(pristine)/size, 0
	rng := rand.New(rand.NewPCG(1, 2))
	for page := range pages {
		if !slices.ContainsFunc(pristine[page*size:(page+1)*size], func(b byte) bool { return b != 0 }) {
			continue // past the high-water mark: no reader goes there
		}
		if owner[uint64(page)] != "" {
			own++
		}
		for _, how := range []string{"zeroed", "scrambled"} {
			damaged := append([]byte(nil), pristine...)
			b := damaged[page*size : (page+1)*size]
			for i := range b {
				b[i] = 0
				if how == "scrambled" {
					b[i] = byte(rng.Uint32())
				}
			}
			name := fmt.Sprintf("page %d %s", page, how)
			file := filepath.Join(t.TempDir(), "damaged.db")
			if err := os.WriteFile(file, damaged, 0o600); err != nil {
				t.Fatal(err)
			}
			readDamaged(t, name, file, owner[uint64(page)], want)
			writeDamaged(t, name, file, owner[uint64(page)], want)
		}
	}
	t.Logf("%d pages, %d of them one table's own", pages, own)
	if own < 2*len(damagedTables) {
		t.Errorf("only %d of %d pages belong to one table: the fixture is too small to tell", own, pages)
	}
}

// readDamaged reads file, whose damaged page is table own's (or no one
// table's when own is ""), as `tables` and `export` do.
func readDamaged(t *testing.T, name, file, own string, want map[string]int) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panic: %v", name, r)
		}
	}()
	ctx := context.Background()
	db, err := Open(file, Options{ReadOnly: true})
	if err != nil {
		if !strings.Contains(err.Error(), file) || own != "" {
			t.Errorf("%s: open: %v", name, err)
		}
		return
	}
	defer db.Close()
	list, err := db.Tables(ctx)
	var dmg *roundtable.DamageError
	if err != nil && (!errors.As(err, &dmg) || !strings.Contains(err.Error(), file)) {
		t.Errorf("%s: tables: an error that names no damage in the file: %v", name, err)
		return
	}
	listed := map[string]bool{}
	for _, s := range list {
		listed[s.ID] = true
	}
	for _, id := range damagedTables {
		named := dmg != nil && dmg.Tables[id] != nil
		whole := dmg != nil && dmg.Err != nil
		switch {
		case !listed[id] && !named && !whole:
			t.Errorf("%s: table %s is neither listed nor named damaged (%v)", name, id, err)
		case own != "" && id != own && (!listed[id] || named):
			t.Errorf("%s: the damage is table %s's, but table %s is not listed whole: %v", name, own, id, err)
		}
		evs, err := db.Load(ctx, id)
		switch {
		case err != nil && !slices.Contains(slices.Collect(maps.Keys(roundtable.DamagedTables(err))), id) && !strings.Contains(err.Error(), file):
			t.Errorf("%s: load %s: an error that names neither the table nor the file: %v", name, id, err)
		case own != "" && id != own && (err != nil || len(evs) != want[id]):
			t.Errorf("%s: the damage is table %s's, but table %s loads %d of %d events: %v", name, own, id, len(evs), want[id], err)
		}
	}
}

// writeDamaged opens file for writing, as serve does, and appends an
// event to every table.
func writeDamaged(t *testing.T, name, file, own string, want map[string]int) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panic while writing: %v", name, r)
		}
	}()
	ctx := context.Background()
	db, err := Open(file, Options{NoSync: true})
	if err != nil {
		if own != "" {
			t.Errorf("%s: open for writing: %v", name, err)
		}
		return
	}
	defer db.Close()
	for _, id := range damagedTables {
		next := roundtable.Event{Table: id, Seq: uint64(want[id]) + 1, Time: time.Now(), Data: roundtable.TableEnded{Reason: "stopped"}}
		if err := db.Append(ctx, id, []roundtable.Event{next}); err != nil && own != "" && id != own {
			t.Errorf("%s: the damage is table %s's, but appending to table %s fails: %v", name, own, id, err)
		}
	}
}
