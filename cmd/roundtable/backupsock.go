package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/roundtable-ai/roundtable/store"
)

// A running serve or sim holds the database's file lock, so another
// process cannot open it. It therefore listens on a unix socket beside the
// database (mode 0600: only the same user) and streams a consistent hot
// copy to whoever connects; `roundtable backup` uses it when the file is
// locked.

// backupSocket is the socket path of a database.
func backupSocket(dbPath string) string { return dbPath + ".backup.sock" }

// serveBackups starts answering backup requests, until ctx is done. The
// socket listens when it returns.
func serveBackups(ctx context.Context, db *store.DB, log *slog.Logger) {
	path := backupSocket(db.Path())
	_ = os.Remove(path) // a stale socket of a killed process
	l, err := net.Listen("unix", path)
	if err != nil {
		log.Warn("no hot backups over a socket", "path", path, "err", err)
		return
	}
	if err := os.Chmod(path, 0o600); err != nil {
		log.Warn("backup socket mode", "err", err)
	}
	go func() {
		<-ctx.Done()
		_ = l.Close()
		_ = os.Remove(path)
	}()
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				if _, err := db.Backup(ctx, conn); err != nil {
					log.Warn("backup over socket", "err", err)
				}
			}()
		}
	}()
}

// backupViaSocket copies the database held by another roundtable process.
func backupViaSocket(ctx context.Context, dbPath, dst string) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", backupSocket(dbPath))
	if err != nil {
		return fmt.Errorf("the database is in use by another process, and it offers no backup socket (%w)", err)
	}
	defer conn.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".backup-*")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, conn); err != nil {
		tmp.Close()
		return fmt.Errorf("backup: %w", err)
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("backup: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("backup: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	// The copy must open as a database before it replaces anything.
	db, err := store.Open(tmp.Name(), store.Options{ReadOnly: true, LockTimeout: time.Second})
	if err != nil {
		return fmt.Errorf("backup: the copy does not open: %w", err)
	}
	checkErr := db.Check()
	db.Close()
	if checkErr != nil {
		return fmt.Errorf("backup: the copy is inconsistent: %w", checkErr)
	}
	return os.Rename(tmp.Name(), dst)
}

// isLocked reports whether err says another process holds the database.
func isLocked(err error) bool { return errors.Is(err, store.ErrLocked) }
