package web

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// A post is shown the moment it is added; its record is written after, by
// the room writer, with every other record queued meanwhile in one
// transaction (group commit), so neither the bot's announcement nor the
// room waits for a disk flush. Records are written in the order they were
// queued, each batch all or none: a crash loses at most the latest ones.
//
// Nothing is lost for good by that: the bot records that a post was
// delivered only after Sync says the room's records are durable
// (bot.Syncer), so a post whose record a crash lost is still undelivered
// in the bot's records and is posted again at the next start, once (the
// room deduplicates posts by key).

// BlobBatcher is an optional capability of Blobs (store.DB has it): many
// records of any namespaces in one durable transaction.
type BlobBatcher interface {
	AddBlobs(ctx context.Context, recs []roundtable.Blob) error
}

// Retry waits of a failed write of room records.
const (
	writeRetryMin = 50 * time.Millisecond
	writeRetryMax = 5 * time.Second
)

// roomWriter queues room records and writes them in batches, one writing
// goroutine at a time, which exits when the queue is empty.
type roomWriter struct {
	blobs Blobs
	log   *slog.Logger

	mu       sync.Mutex
	pending  []roundtable.Blob
	writing  bool
	queued   uint64 // records queued since the start
	durable  uint64 // of those, records written
	failures uint64
	lastErr  error
	changed  *signal // fired when durable or failures move
}

func newRoomWriter(blobs Blobs, log *slog.Logger) *roomWriter {
	return &roomWriter{blobs: blobs, log: log, changed: newSignal()}
}

// queue adds a record to write; it never blocks on the disk.
func (w *roomWriter) queue(ns, key string, v []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pending = append(w.pending, roundtable.Blob{NS: ns, Key: key, Value: v})
	w.queued++
	if !w.writing {
		w.writing = true
		go w.write()
	}
}

// write writes batches until the queue is empty.
func (w *roomWriter) write() {
	wait := writeRetryMin
	for {
		w.mu.Lock()
		batch := w.pending
		w.pending = nil
		if len(batch) == 0 {
			w.writing = false
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		err := w.put(batch)
		w.mu.Lock()
		if err != nil {
			w.pending = append(batch, w.pending...) // in order, before what came since
			w.failures++
			w.lastErr = err
		} else {
			w.durable += uint64(len(batch))
		}
		w.changed.fire()
		w.mu.Unlock()
		if err == nil {
			wait = writeRetryMin
			continue
		}
		w.log.Error("save room records; retrying", "records", len(batch), "err", err)
		time.Sleep(wait)
		wait = min(2*wait, writeRetryMax)
	}
}

// put writes a batch in one transaction when the store can, else record
// by record (in order).
func (w *roomWriter) put(batch []roundtable.Blob) error {
	ctx := context.Background()
	if bb, ok := w.blobs.(BlobBatcher); ok {
		return bb.AddBlobs(ctx, batch)
	}
	for _, r := range batch {
		if err := w.blobs.AddBlob(ctx, r.NS, r.Key, r.Value); err != nil {
			return err
		}
	}
	return nil
}

// sync returns once every record queued before it is durable, or with
// the error of a failed attempt to write them (they stay queued), or when
// ctx is done.
func (w *roomWriter) sync(ctx context.Context) error {
	w.mu.Lock()
	target, failures := w.queued, w.failures
	w.mu.Unlock()
	for {
		w.mu.Lock()
		durable, failed, err, changed := w.durable, w.failures > failures, w.lastErr, w.changed.wait()
		w.mu.Unlock()
		switch {
		case durable >= target:
			return nil
		case failed:
			return err
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
