package store_test

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
)

// BenchmarkAppendVsBolt measures one-event appends from 64 concurrent
// tables (one goroutine each) through DB.Append and through raw bbolt
// Batch in the same run, alternating in 16 legs each so that a change in
// the machine's load hits both alike. Raw bbolt encodes the
// event to JSON and puts it under its sequence key in the table's bucket,
// with the store's batch delay; DB.Append also checks the sequence and
// updates the table's index entry. It reports both rates and their ratio
// (store/bolt, higher is better), and the ratio of the process CPU time
// per event (store-cpu/bolt-cpu, lower is better), which depends less on
// what else the machine runs.
func BenchmarkAppendVsBolt(b *testing.B) {
	for _, fsync := range []bool{true, false} {
		b.Run(fmt.Sprintf("tables=64/fsync=%t", fsync), func(b *testing.B) { benchVsBolt(b, 64, !fsync) })
	}
}

func benchVsBolt(b *testing.B, tables int, noSync bool) {
	db := openTest(b, store.Options{NoSync: noSync})
	raw, err := bolt.Open(filepath.Join(b.TempDir(), "raw.db"), 0o600, &bolt.Options{NoSync: noSync})
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	raw.MaxBatchDelay = store.BatchDelay
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	next := make([]uint64, tables) // the next Seq of each table, in both files
	ids := make([]string, tables)
	for i := range tables {
		ids[i] = fmt.Sprintf("t%d", i)
		created := []roundtable.Event{{Table: ids[i], Seq: 1, Time: now, Data: roundtable.TableCreated{Config: roundtabletest.SampleConfig(1).WithDefaults()}}}
		if err := db.Append(b.Context(), ids[i], created); err != nil {
			b.Fatal(err)
		}
		v, err := json.Marshal(created[0])
		if err != nil {
			b.Fatal(err)
		}
		if err := raw.Update(func(tx *bolt.Tx) error { return rawPut(tx, ids[i], 1, v) }); err != nil {
			b.Fatal(err)
		}
		next[i] = 2
	}
	var storeTime, boltTime, storeCPU, boltCPU time.Duration
	const legs = 16
	b.ResetTimer()
	for leg := range legs {
		n := b.N / legs
		if leg < b.N%legs {
			n++
		}
		cpu := roundtabletest.ProcessCPU()
		storeTime += concurrently(tables, n, next, func(i int, seq uint64) error {
			return db.Append(b.Context(), ids[i], []roundtable.Event{message(ids[i], seq, now)})
		})
		cpu, storeCPU = roundtabletest.ProcessCPU(), storeCPU+roundtabletest.ProcessCPU()-cpu
		boltTime += concurrently(tables, n, next, func(i int, seq uint64) error {
			v, err := json.Marshal(message(ids[i], seq, now))
			if err != nil {
				return err
			}
			return raw.Batch(func(tx *bolt.Tx) error { return rawPut(tx, ids[i], seq, v) })
		})
		boltCPU += roundtabletest.ProcessCPU() - cpu
		for i := range next {
			next[i] += uint64(share(n, tables, i))
		}
	}
	b.StopTimer()
	storeRate, boltRate := float64(b.N)/storeTime.Seconds(), float64(b.N)/boltTime.Seconds()
	b.ReportMetric(storeRate, "store-events/s")
	b.ReportMetric(boltRate, "bolt-events/s")
	b.ReportMetric(storeRate/boltRate, "store/bolt")
	if boltCPU > 0 {
		b.ReportMetric(float64(storeCPU)/float64(boltCPU), "store-cpu/bolt-cpu")
	}
}

// concurrently runs n calls of put spread over tables goroutines, table i
// putting share(n, tables, i) Seqs from next[i] on, and returns the wall
// time.
func concurrently(tables, n int, next []uint64, put func(i int, seq uint64) error) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, tables)
	for i := range tables {
		k := share(n, tables, i)
		wg.Go(func() {
			for j := range uint64(k) {
				if err := put(i, next[i]+j); err != nil {
					errs[i] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			panic(err)
		}
	}
	return time.Since(start)
}

// share is table i's part of n events spread over tables.
func share(n, tables, i int) int {
	if i < n%tables {
		return n/tables + 1
	}
	return n / tables
}

func message(table string, seq uint64, now time.Time) roundtable.Event {
	return roundtable.Event{Table: table, Seq: seq, Time: now, Actor: "bot-1",
		Data: roundtable.MessagePosted{Round: 1, Text: "A park serves more people than a row of trees."}}
}

// rawPut is what raw bbolt does for an encoded event: put it under its
// sequence key in its table's bucket.
func rawPut(tx *bolt.Tx, table string, seq uint64, v []byte) error {
	bk, err := tx.CreateBucketIfNotExists([]byte(table))
	if err != nil {
		return err
	}
	return bk.Put(binary.BigEndian.AppendUint64(nil, seq), v)
}
