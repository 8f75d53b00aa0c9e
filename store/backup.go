package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// Backup writes a consistent copy of the whole database to w while it stays
// in use: the copy is the file as of one read transaction, so concurrent
// appends are either wholly in it or not at all. It returns the bytes
// written. Cancelling ctx stops the copy at the next write.
func (db *DB) Backup(ctx context.Context, w io.Writer) (int64, error) {
	if err := checkCtx(ctx, "back up store"); err != nil {
		return 0, err
	}
	var n int64
	err := db.view("", func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(ctxWriter{ctx, w})
		return err
	})
	if err != nil {
		return n, fmt.Errorf("back up store %s: %w", db.path, err)
	}
	return n, nil
}

// BackupFile writes a backup to path atomically: into a temporary file in
// the same directory (mode 0600), fsynced, then renamed over path. On error
// path is left as it was.
func (db *DB) BackupFile(ctx context.Context, path string) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("back up store to %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, removeTemp(f))
		}
	}()
	if err := f.Chmod(0o600); err != nil {
		return fmt.Errorf("back up store to %s: %w", path, err)
	}
	if _, err := db.Backup(ctx, f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("back up store to %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("back up store to %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("back up store to %s: %w", path, err)
	}
	return syncDir(filepath.Dir(path))
}

// removeTemp closes and removes a temporary file after a failed backup.
func removeTemp(f *os.File) error {
	_ = f.Close() // may already be closed; the removal is what matters
	if err := os.Remove(f.Name()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove temporary backup: %w", err)
	}
	return nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}

// ctxWriter fails writes once its context is done, so a long backup can be
// cancelled.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
