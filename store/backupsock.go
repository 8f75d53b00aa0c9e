package store

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"
)

// A running process holds the database's file lock, so another process
// cannot open it. It therefore listens on a unix socket beside the
// database (mode 0600: only the same user) and streams a consistent hot
// copy to whoever connects (ServeBackups); BackupFrom uses it when the
// file is locked.

// backupSocket is the socket path of a database.
func backupSocket(dbPath string) string { return dbPath + ".backup.sock" }

// ServeBackups starts answering backup requests on the database's backup
// socket, until ctx is done: each connection gets a consistent copy
// (Backup). The socket listens when it returns; where it cannot, the
// process runs on without it, and says so in log.
func (db *DB) ServeBackups(ctx context.Context, log *slog.Logger) {
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

// BackupFrom copies the database at dbPath, which another process holds
// and serves backups of (ServeBackups), to the file dst: the copy is
// checked before it replaces dst.
func BackupFrom(ctx context.Context, dbPath, dst string) error {
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
	db, err := Open(tmp.Name(), Options{ReadOnly: true, LockTimeout: time.Second})
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
