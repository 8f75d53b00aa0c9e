package store

import (
	"errors"
	"fmt"
	"runtime/debug"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Every transaction goes through view, update, write or batch, which turn
// a panic of bbolt into an error. bbolt asserts what it reads ("page
// expected to be: 4, but self identifies as 0"), and a page ID read from
// a damaged page may point past the file, which faults (SetPanicOnFault
// makes that a panic too). A damaged page then gives a
// *roundtable.DamageError that names the file and the table being read,
// and the process goes on with the rest of the file.

// pageDamage is what a recovered panic becomes.
type pageDamage struct{ cause any }

func (d *pageDamage) Error() string { return fmt.Sprintf("damaged page (%v)", d.cause) }

// catch runs fn, turning a panic, a fault reading the mapped file
// included, into a *pageDamage.
func catch(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = &pageDamage{cause: r}
		}
	}()
	return fn()
}

// caught wraps a transaction's function with catch, for the transactions
// bbolt may run in a goroutine of its own (a batch).
func caught(fn func(*bolt.Tx) error) func(*bolt.Tx) error {
	return func(tx *bolt.Tx) error { return catch(func() error { return fn(tx) }) }
}

// damage returns err as the store reports it: page damage as a
// *roundtable.DamageError naming table (the file alone when table is ""),
// any other error as it is.
func (db *DB) damage(table string, err error) error {
	var pd *pageDamage
	if !errors.As(err, &pd) {
		return err
	}
	d := &roundtable.DamageError{File: db.path}
	if table == "" {
		d.Err = pd
	} else {
		d.Tables = map[string]error{table: pd}
	}
	return d
}

// view runs fn in a read transaction; table is the table whose data fn
// reads ("" for none in particular).
func (db *DB) view(table string, fn func(*bolt.Tx) error) error {
	return db.damage(table, catch(func() error { return db.bolt.View(fn) }))
}

// update runs fn in a read-write transaction of its own, as view does.
func (db *DB) update(table string, fn func(*bolt.Tx) error) error {
	return db.damage(table, catch(func() error { return db.bolt.Update(fn) }))
}

// batch runs fn in a transaction shared with concurrent writes (bbolt's
// Batch), as view does.
func (db *DB) batch(table string, fn func(*bolt.Tx) error) error {
	return db.damage(table, catch(func() error { return db.bolt.Batch(caught(fn)) }))
}
