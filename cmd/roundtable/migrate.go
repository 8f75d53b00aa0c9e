package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/roundtable-ai/roundtable/store"
)

func (a *App) migrateCmd() *cobra.Command {
	var from, to string
	var resume bool
	cmd := &cobra.Command{
		Use:   "migrate --from FILE|etcd --to FILE|etcd [--resume]",
		Short: "Copy every table, snapshot, annotation, binding and blob from one store to another (bbolt file <-> etcd)",
		Long: `Copies everything a store holds into another: each table's event log, its
latest snapshot with the ended rounds it stores apart, annotations, channel
bindings and blobs (the outbox's delivery records, the web channel's rooms).
FILE is a bbolt database (created if missing); etcd is the cluster and prefix
of [store] in the config (backend = "etcd", endpoints, prefix).

  roundtable migrate --from roundtable.db --to etcd     # into etcd
  roundtable migrate --from etcd --to copy.db           # and back

Stop the servers that use either store first. The destination must be empty
unless --resume: a migration that stopped half-way (a lost connection, a
signal) continues where it stopped, tables already copied whole are left
alone, and a table whose log differs there is an error. At the end the
destination is checked against the source (tables' summaries, counts of
annotations, bindings and blobs).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case from == "" || to == "":
				return usagef("--from and --to are both required")
			case from == to:
				return usagef("--from and --to name the same store %s", from)
			}
			cfg, err := LoadConfig(a.configPath)
			if err != nil {
				return err
			}
			return a.migrate(cmd.Context(), cfg, from, to, resume)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&from, "from", "", "the store to copy: a database file, or etcd")
	fl.StringVar(&to, "to", "", "the store to copy into: a database file, or etcd")
	fl.BoolVar(&resume, "resume", false, "continue into a destination that already holds data (an interrupted migration)")
	return cmd
}

func (a *App) migrate(ctx context.Context, cfg Config, from, to string, resume bool) error {
	src, err := a.openStore(ctx, cfg, from, true)
	if err != nil {
		return locked(err)
	}
	defer src.Close()
	dst, err := a.openStore(ctx, cfg, to, false)
	if err != nil {
		return locked(err)
	}
	defer dst.Close()
	sums, err := src.Tables(ctx)
	if err != nil {
		return err
	}
	bar := a.progress(len(sums))
	rep, err := store.Copy(ctx, dst, src, store.CopyOptions{Resume: resume, Progress: func(string) { _ = bar.Add(1) }})
	_ = bar.Finish()
	if errors.Is(err, store.ErrNotEmpty) {
		return fmt.Errorf("migrate to %s: %w; pass --resume to continue a migration into it", storeName(dst), err)
	}
	if err != nil {
		return fmt.Errorf("migrate %s to %s: %w", storeName(src), storeName(dst), err)
	}
	fmt.Fprintf(a.Stdout, "copied %s\nfrom %s to %s; the destination holds them all", rep, storeName(src), storeName(dst))
	if rep.Complete > 0 {
		fmt.Fprintf(a.Stdout, " (%d tables were there whole already)", rep.Complete)
	}
	fmt.Fprintln(a.Stdout)
	if rep.SnapshotsLeft > 0 {
		fmt.Fprintf(a.Stdout, "%d tables have no snapshot in the destination (it held their logs past the source's snapshot); they open from their logs\n", rep.SnapshotsLeft)
	}
	return nil
}

// locked adds advice to the error of a file another process holds.
func locked(err error) error {
	if errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("%w; stop the server using it first", err)
	}
	return err
}

// copyIntoFile copies src into a new bbolt file at path, atomically: into
// a temporary file beside it, renamed over path once complete and checked.
func copyIntoFile(ctx context.Context, src store.Backend, path string) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("back up to %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			err = errors.Join(err, os.Remove(tmp))
		}
	}()
	if err := f.Close(); err != nil {
		return fmt.Errorf("back up to %s: %w", path, err)
	}
	db, err := store.Open(tmp, store.Options{})
	if err != nil {
		return fmt.Errorf("back up to %s: %w", path, err)
	}
	_, err = store.Copy(ctx, db, src, store.CopyOptions{})
	if err = errors.Join(err, db.Check(), db.Close()); err != nil {
		return fmt.Errorf("back up %s to %s: %w", storeName(src), path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("back up to %s: %w", path, err)
	}
	return nil
}
