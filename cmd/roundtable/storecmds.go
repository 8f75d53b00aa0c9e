package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/export"
	"github.com/roundtable-ai/roundtable/store"
)

// readStore opens the store named by --db (a file, or "etcd"; by default
// the config's) for reading, refusing to create a file where one was
// expected, and closes it after fn.
func (a *App) readStore(ctx context.Context, path string, fn func(db store.Backend) error) error {
	cfg, err := LoadConfig(a.configPath)
	if err != nil {
		return err
	}
	db, err := a.openStore(ctx, cfg, path, true)
	if errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("%w; stop the server using it, or read a copy (roundtable backup COPY.db, then --db COPY.db)", err)
	}
	if err != nil {
		return err
	}
	defer db.Close()
	return fn(db)
}

func (a *App) tablesCmd() *cobra.Command {
	var dbPath string
	cmd := &cobra.Command{
		Use:   "tables",
		Short: "List the tables in the database; a table whose log does not replay is marked damaged",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.readStore(cmd.Context(), dbPath, func(db store.Backend) error {
				list, listErr := db.Tables(cmd.Context())
				if listErr != nil && !roundtable.IsDamage(listErr) {
					return listErr
				}
				w := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', 0)
				fmt.Fprintln(w, "ID\tSTATUS\tTITLE\tTASK\tRULE\tROUND\tPEOPLE\tEVENTS\tSTARTED\tUPDATED\tOUTPUT")
				bad := maps.Clone(roundtable.DamagedTables(listErr))
				for _, s := range list {
					status := string(s.Status)
					if why := roundtable.Diagnose(cmd.Context(), db, s.ID); why != "" {
						status = "damaged: " + why
					}
					fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d/%d\t%d\t%d\t%s\t%s\t%s\n", s.ID, status, clip(s.Title, 30), s.Task, s.Rule,
						s.Round, s.Rounds, s.Participants, s.Events, startedWords(s), s.Updated.Format(time.DateTime), clip(s.Output, 40))
					delete(bad, s.ID)
				}
				for _, id := range slices.Sorted(maps.Keys(bad)) {
					fmt.Fprintf(w, "%s\tdamaged: %v\t\t\t\t\t\t\t\t\t\n", id, bad[id])
				}
				return errors.Join(w.Flush(), listErr) // listed what reads; the damage is the command's error
			})
		},
	}
	cmd.Flags().StringVar(&dbPath, "db", "", "database file, or etcd for the cluster of [store] (default: the store of the config)")
	return cmd
}

// startedWords is when a listed table started, or "waiting" while it
// waits for its people.
func startedWords(s roundtable.Summary) string {
	if s.Started.IsZero() {
		if s.Status == roundtable.StatusCreated {
			return "waiting"
		}
		return "-"
	}
	return s.Started.Format(time.DateTime)
}

func (a *App) exportCmd() *cobra.Command {
	var dbPath, table, format, out, auditOut string
	var pseudo bool
	cmd := &cobra.Command{
		Use:   "export [--table ID] [--format jsonl|csv] [--pseudonymize]",
		Short: "Write a table's event log (or every table's) as JSON lines or CSV",
		Long: `Writes a table's event log (or every table's) as JSON lines or CSV.
An ended table is exported whole, private reasoning included. A table that
is still running is exported as far as it has been revealed: the sealed
messages, proposals and ballots of its open phase appear as "withheld"
events (who acted, not what), and private reasoning is left out.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := export.ParseFormat(format)
			if err != nil {
				return usagef("--format: %v", err)
			}
			var events []roundtable.Event
			var damaged error // tables left out of an export of every table
			err = a.readStore(cmd.Context(), dbPath, func(db store.Backend) (err error) {
				events, damaged, err = loadForExport(cmd.Context(), db, table)
				return err
			})
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if out != "" && out != "-" {
				file, err := os.Create(out)
				if err != nil {
					return fmt.Errorf("export: %w", err)
				}
				defer file.Close()
				w = file
			}
			// The operator exports as a researcher: everything of an ended
			// table, reasoning included; of a running table only what its
			// participants have all seen (roundtable.Visible).
			if err := export.Write(w, f, events, export.Options{Pseudonymize: pseudo, Viewer: roundtable.Viewer{Researcher: true, Organiser: true}}); err != nil {
				return err
			}
			return errors.Join(a.exportAudit(cmd.Context(), dbPath, auditOut, events, pseudo), damaged)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&dbPath, "db", "", "database file, or etcd for the cluster of [store] (default: the store of the config)")
	fl.StringVar(&table, "table", "", "the `ID` of a table (see roundtable tables) or of its web room (/r/ID) or bound channel (discord:THREAD, slack:CHANNEL); without it, every table")
	fl.StringVar(&format, "format", "jsonl", "jsonl or csv")
	fl.StringVarP(&out, "output", "o", "", "output file (default stdout)")
	fl.StringVar(&auditOut, "audit", "", "also write the tables' audits (annotations: sentiment, stance, self-reports) as JSON lines to this file")
	fl.BoolVar(&pseudo, "pseudonymize", false, "replace human participants' IDs and names by human-1, human-2, ...")
	return cmd
}

func (a *App) backupCmd() *cobra.Command {
	var dbPath string
	cmd := &cobra.Command{
		Use:   "backup FILE",
		Short: "Copy the database to FILE, consistently, even while it is in use",
		Long: `Copies the database to FILE in one read transaction. When a running
roundtable (serve or sim) holds the database, the copy is streamed from that
process over a private socket beside the database, so tables keep running.
With the etcd backend (or --db etcd), FILE is a bbolt database holding what
etcd holds under the prefix, as roundtable migrate --from etcd writes it
(stop the servers first for a copy of one moment).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dbPath != "" && dbPath != etcdName {
				if _, err := os.Stat(dbPath); err != nil {
					return fmt.Errorf("database %s: %w", dbPath, err)
				}
			}
			cfg, err := LoadConfig(a.configPath)
			if err != nil {
				return err
			}
			src := dbPath
			if src == "" {
				src = cfg.Store.Path
			}
			dst, err := filepath.Abs(args[0])
			if err != nil {
				return fmt.Errorf("backup: %w", err)
			}
			if src == etcdName || (dbPath == "" && cfg.Store.Backend == "etcd") {
				err = a.backupEtcd(cmd.Context(), cfg, dst)
			} else {
				err = backupFile(cmd.Context(), src, dst)
			}
			if err != nil {
				return err
			}
			st, err := os.Stat(dst)
			if err != nil {
				return fmt.Errorf("backup: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s (%d bytes)\n", dst, st.Size())
			return nil
		},
	}
	cmd.Flags().StringVar(&dbPath, "db", "", "database file, or etcd for the cluster of [store] (default: the store of the config)")
	return cmd
}

// backupFile copies the database file src to dst: itself, or through
// the process that holds it.
func backupFile(ctx context.Context, src, dst string) error {
	db, err := store.Open(src, store.Options{ReadOnly: true, LockTimeout: 200 * time.Millisecond})
	switch {
	case errors.Is(err, store.ErrLocked):
		return store.BackupFrom(ctx, src, dst)
	case err != nil:
		return err
	}
	defer db.Close()
	return db.BackupFile(ctx, dst)
}

// backupEtcd copies the etcd store of [store] into a new file dst.
func (a *App) backupEtcd(ctx context.Context, cfg Config, dst string) error {
	db, err := a.openEtcd(ctx, cfg, true)
	if err != nil {
		return err
	}
	defer db.Close()
	return copyIntoFile(ctx, db, dst)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// loadForExport reads table's log, or every table's when table is "". A
// damaged page leaves out only the tables under it: they are named in
// damaged, and the others are exported.
func loadForExport(ctx context.Context, db store.Backend, table string) (events []roundtable.Event, damaged, err error) {
	if table != "" {
		if table, err = resolveTable(ctx, db, table); err != nil {
			return nil, nil, err
		}
	}
	var ids []string
	if table != "" {
		ids = []string{table}
	}
	ids, damaged, err = roundtable.Readable(ctx, db, ids)
	if err == nil && table != "" && damaged != nil {
		err = damaged // the one table asked for
	}
	for _, id := range ids {
		if err != nil {
			break
		}
		var evs []roundtable.Event
		evs, err = db.Load(ctx, id)
		events = append(events, evs...)
	}
	return events, damaged, err
}

// resolveTable names the table that ref stands for: a table ID, or the
// channel a platform binds to a table, a web room's ID ("/r/ID" in the
// room's address) or "platform:channel" (discord:THREAD, slack:CHANNEL).
// A ref that is neither is refused with code NotFound.
func resolveTable(ctx context.Context, db store.Backend, ref string) (string, error) {
	if _, err := db.LoadFrom(ctx, ref, math.MaxUint64); roundtable.ErrorCode(err) != roundtable.NotFound {
		return ref, nil // a table of that ID (or a damage its load reports)
	}
	key := ref
	if !strings.Contains(ref, ":") {
		key = "web:" + strings.TrimPrefix(ref, "/r/")
	}
	id, ok, err := db.Lookup(ctx, key)
	switch {
	case err != nil:
		return "", fmt.Errorf("look up the table of %s: %w", ref, err)
	case !ok:
		return "", roundtable.Errorf(roundtable.NotFound, "no table %s, nor a room or channel of that name (see roundtable tables)", ref)
	}
	return id, nil
}
