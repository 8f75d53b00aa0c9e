package etcdstore_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
	"github.com/roundtable-ai/roundtable/store/etcdstore"
	"github.com/roundtable-ai/roundtable/store/etcdstore/etcdtest"
)

// BenchmarkAppendEtcdVsBolt measures one-event appends, one goroutine per
// table, on a bbolt file and on a one-member etcd cluster embedded in the
// process, both with fsync, in the same run: they alternate in 16 legs so
// that a change in the machine's load hits both alike. It reports both
// rates and their ratio (etcd/bolt, higher is better).
func BenchmarkAppendEtcdVsBolt(b *testing.B) {
	for _, tables := range []int{1, 64} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) { benchEtcdVsBolt(b, tables) })
	}
}

func benchEtcdVsBolt(b *testing.B, tables int) {
	bolt, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer bolt.Close()
	c, err := etcdtest.Start(b.TempDir(), etcdtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	etcd := c.Open(b, etcdstore.Options{})
	stores := []roundtable.Store{etcd, bolt}
	ids := make([]string, tables)
	for i := range ids {
		ids[i] = fmt.Sprintf("t%d", i)
		for _, s := range stores {
			created := roundtable.Event{Table: ids[i], Seq: 1, Time: when, Data: roundtable.TableCreated{Config: roundtabletest.SampleConfig(1).WithDefaults()}}
			if err := s.Append(b.Context(), ids[i], []roundtable.Event{created}); err != nil {
				b.Fatal(err)
			}
		}
	}
	next := make([]uint64, tables) // the next Seq of each table, in both stores
	for i := range next {
		next[i] = 2
	}
	spent := make([]time.Duration, len(stores))
	const legs = 16
	b.ResetTimer()
	for leg := range legs {
		n := b.N/legs + min(1, max(0, b.N%legs-leg))
		for k, s := range stores {
			spent[k] += appendAll(b, s, ids, next, n)
		}
		for i := range next {
			next[i] += uint64(share(n, tables, i))
		}
	}
	b.StopTimer()
	etcdRate, boltRate := float64(b.N)/spent[0].Seconds(), float64(b.N)/spent[1].Seconds()
	b.ReportMetric(etcdRate, "etcd-events/s")
	b.ReportMetric(boltRate, "bolt-events/s")
	b.ReportMetric(etcdRate/boltRate, "etcd/bolt")
}

// appendAll appends n one-event appends spread over the tables, one
// goroutine each, table i from Seq next[i] on, and returns the wall time.
func appendAll(b *testing.B, s roundtable.Store, ids []string, next []uint64, n int) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() {
			for j := range uint64(share(n, len(ids), i)) {
				e := messages(id, next[i]+j, 1, "A park serves more people than a row of trees.")
				if err := s.Append(b.Context(), id, e); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}

// share is table i's part of n events spread over tables.
func share(n, tables, i int) int {
	if i < n%tables {
		return n/tables + 1
	}
	return n / tables
}
