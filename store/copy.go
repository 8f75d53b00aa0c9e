package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// copyChunk is how many events one append of Copy carries.
const copyChunk = 256

// ErrNotEmpty matches (with errors.Is) the error of Copy into a store that
// already holds something, unless CopyOptions.Resume.
var ErrNotEmpty = errors.New("the destination is not empty")

// CopyOptions tune Copy.
type CopyOptions struct {
	// Resume continues into a destination that already holds data, as
	// after an interrupted copy: a table whose log there is a prefix of
	// the source's gets the rest, an identical one is left alone, and one
	// that differs is an error. Annotations, bindings and blobs are
	// written again over what is there.
	Resume bool
	// Progress, when set, is called after each table is copied.
	Progress func(table string)
}

// CopyReport counts what Copy copied, as the destination holds it at the
// end.
type CopyReport struct {
	Tables, Events, Snapshots int
	Annotations, Bindings     int
	Namespaces, Blobs         int
	Complete                  int // tables the destination held whole already
	SnapshotsLeft             int // tables whose source snapshot was not copied (see Copy)
}

// String sums the report up in one line.
func (r CopyReport) String() string {
	return fmt.Sprintf("%d tables (%d events, %d snapshots), %d annotations, %d bindings, %d blobs in %d namespaces",
		r.Tables, r.Events, r.Snapshots, r.Annotations, r.Bindings, r.Blobs, r.Namespaces)
}

// Copy copies everything src holds into dst: every table's log with its
// snapshot and the snapshot's ended rounds, annotations, bindings and
// blobs (the outbox's records, the web channel's rooms). A log is copied
// in appends of a few hundred events, the one that reaches the source's
// snapshot carrying it, so an interrupted copy resumes (Resume) where it
// stopped. At the end it checks that dst holds what src does: the same
// table summaries, and as many annotations, bindings and blobs. Both
// stores should be idle: copy from a stopped server's store.
func Copy(ctx context.Context, dst, src Backend, opt CopyOptions) (CopyReport, error) {
	var rep CopyReport
	if !opt.Resume {
		what, err := holds(ctx, dst)
		if err != nil {
			return rep, fmt.Errorf("copy: %w", err)
		}
		if what != "" {
			return rep, fmt.Errorf("copy: %w: it holds %s", ErrNotEmpty, what)
		}
	}
	sums, err := src.Tables(ctx)
	if err != nil {
		return rep, fmt.Errorf("copy: %w", err)
	}
	have, err := dst.Tables(ctx)
	if err != nil {
		return rep, fmt.Errorf("copy: %w", err)
	}
	had := map[string]uint64{}
	for _, s := range have {
		had[s.ID] = s.Events
	}
	for _, s := range sums {
		if err := copyTable(ctx, dst, src, s.ID, had[s.ID], &rep); err != nil {
			return rep, fmt.Errorf("copy table %s: %w", s.ID, err)
		}
		if opt.Progress != nil {
			opt.Progress(s.ID)
		}
	}
	if err := copyBeside(ctx, dst, src, &rep); err != nil {
		return rep, fmt.Errorf("copy: %w", err)
	}
	if err := verifyCopy(ctx, dst, src, sums, rep); err != nil {
		return rep, fmt.Errorf("copy: check: %w", err)
	}
	return rep, nil
}

// holds says what s holds, "" when nothing.
func holds(ctx context.Context, s Backend) (string, error) {
	sums, err := s.Tables(ctx)
	if err != nil {
		return "", err
	}
	nss, err := s.BlobNamespaces(ctx)
	if err != nil {
		return "", err
	}
	anns, err := s.AnnotatedTables(ctx)
	if err != nil {
		return "", err
	}
	bound := 0
	if err := s.Bindings(ctx, func(string, string) error { bound++; return nil }); err != nil {
		return "", err
	}
	var what []string
	for _, c := range []struct {
		n    int
		what string
	}{{len(sums), "tables"}, {len(anns), "tables' annotations"}, {bound, "bindings"}, {len(nss), "blob namespaces"}} {
		if c.n > 0 {
			what = append(what, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	return strings.Join(what, ", "), nil
}

// copyTable appends what dst lacks of table id's log (it has the first
// had events), with src's snapshot when the appends pass it.
func copyTable(ctx context.Context, dst, src Backend, id string, had uint64, rep *CopyReport) error {
	events, err := src.Load(ctx, id)
	if err != nil {
		return err
	}
	if err := samePrefix(ctx, dst, id, had, events); err != nil {
		return err
	}
	rep.Tables++
	rep.Events += len(events)
	snap, _, err := src.LoadSnapshot(ctx, id)
	if err != nil { // a damaged snapshot: the log is the record
		snap = nil
	}
	if snap != nil {
		rep.Snapshots++
		if snap.Seq <= had {
			rep.SnapshotsLeft++
		}
	}
	if had == uint64(len(events)) {
		rep.Complete++
		return nil
	}
	for rest := events[had:]; len(rest) > 0; {
		n := min(len(rest), copyChunk)
		if snap != nil && snap.Seq >= rest[0].Seq && snap.Seq < rest[0].Seq+uint64(n) {
			n = int(snap.Seq - rest[0].Seq + 1)
			err = dst.AppendSnapshot(ctx, id, rest[:n], snap)
		} else {
			err = dst.Append(ctx, id, rest[:n])
		}
		if err != nil {
			return err
		}
		rest = rest[n:]
	}
	return nil
}

// samePrefix checks that dst's first had events of table id are src's.
func samePrefix(ctx context.Context, dst Backend, id string, had uint64, events []roundtable.Event) error {
	if had == 0 {
		return nil
	}
	if had > uint64(len(events)) {
		return fmt.Errorf("the destination has %d events, the source only %d", had, len(events))
	}
	got, err := dst.LoadFrom(ctx, id, had)
	if err != nil {
		return err
	}
	if same, err := sameJSON(got[0], events[had-1]); err != nil || !same {
		return errors.Join(err, fmt.Errorf("event %d differs in the destination: it holds another log", had))
	}
	return nil
}

// besideVisitor is what eachBeside calls with what a store holds beside
// the logs.
type besideVisitor struct {
	annotated func(table string) error // a table that has annotations
	binding   func(key, table string) error
	namespace func(ns string) error // a namespace that holds blobs
}

// eachBeside calls v with everything s holds beside the logs.
func eachBeside(ctx context.Context, s Backend, v besideVisitor) error {
	anns, err := s.AnnotatedTables(ctx)
	if err != nil {
		return err
	}
	for _, id := range anns {
		if err := v.annotated(id); err != nil {
			return err
		}
	}
	if err := s.Bindings(ctx, v.binding); err != nil {
		return err
	}
	nss, err := s.BlobNamespaces(ctx)
	if err != nil {
		return err
	}
	for _, ns := range nss {
		if err := v.namespace(ns); err != nil {
			return err
		}
	}
	return nil
}

// copyBeside copies what is beside the logs: annotations, bindings, blobs.
func copyBeside(ctx context.Context, dst, src Backend, rep *CopyReport) error {
	return eachBeside(ctx, src, besideVisitor{
		annotated: func(id string) error {
			as, err := src.Annotations(ctx, id)
			if err != nil {
				return err
			}
			rep.Annotations += len(as)
			return dst.PutAnnotations(ctx, as)
		},
		binding: func(key, table string) error {
			rep.Bindings++
			return dst.Bind(ctx, key, table)
		},
		namespace: func(ns string) error {
			kv, err := src.Blobs(ctx, ns, "")
			if err != nil {
				return err
			}
			rep.Namespaces++
			rep.Blobs += len(kv)
			return dst.PutBlobs(ctx, ns, kv)
		},
	})
}

// verifyCopy checks that dst holds what rep counted of src.
func verifyCopy(ctx context.Context, dst, src Backend, sums []roundtable.Summary, rep CopyReport) error {
	got, err := dst.Tables(ctx)
	if err != nil {
		return err
	}
	want := map[string]roundtable.Summary{}
	for _, s := range sums {
		want[s.ID] = s
	}
	for _, s := range got {
		w, ok := want[s.ID]
		if !ok {
			continue
		}
		if same, err := sameJSON(s, w); err != nil || !same {
			return errors.Join(err, fmt.Errorf("table %s: the destination sums it up as %+v, the source as %+v", s.ID, s, w))
		}
		delete(want, s.ID)
	}
	if len(want) > 0 {
		return fmt.Errorf("%d tables are missing from the destination (%s, ...)", len(want), slices.Sorted(maps.Keys(want))[0])
	}
	var c CopyReport
	if err := countBeside(ctx, dst, src, &c); err != nil {
		return err
	}
	if c.Annotations < rep.Annotations || c.Bindings < rep.Bindings || c.Blobs < rep.Blobs {
		return fmt.Errorf("the destination holds %d annotations, %d bindings and %d blobs of the source's %d, %d and %d",
			c.Annotations, c.Bindings, c.Blobs, rep.Annotations, rep.Bindings, rep.Blobs)
	}
	return nil
}

// countBeside counts, in dst, the annotations, bindings and blobs of what
// src has.
func countBeside(ctx context.Context, dst, src Backend, c *CopyReport) error {
	bound := map[string]string{}
	if err := dst.Bindings(ctx, func(k, t string) error { bound[k] = t; return nil }); err != nil {
		return err
	}
	return eachBeside(ctx, src, besideVisitor{
		annotated: func(id string) error {
			as, err := dst.Annotations(ctx, id)
			c.Annotations += len(as)
			return err
		},
		binding: func(k, t string) error {
			if bound[k] == t {
				c.Bindings++
			}
			return nil
		},
		namespace: func(ns string) error {
			kv, err := dst.Blobs(ctx, ns, "")
			c.Blobs += len(kv)
			return err
		},
	})
}

// sameJSON reports whether a and b encode alike.
func sameJSON(a, b any) (bool, error) {
	ea, errA := json.Marshal(a)
	eb, errB := json.Marshal(b)
	return string(ea) == string(eb), errors.Join(errA, errB)
}
