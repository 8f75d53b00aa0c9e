// Package etcdstore keeps table logs in etcd, beside the bbolt file of
// package store: several processes can then share the tables. It
// implements store.Backend and passes the same suites (package storetest)
// as the file. It is the only package that imports the etcd client.
//
// Layout of the keys, under a prefix (Options.Prefix, "/roundtable/" by
// default); <table> and <ns> are path-escaped (url.PathEscape, so they
// hold no "/"), <seq> and <n> are 16 hex digits, so keys sort in order:
//
//	meta/schema                 layout version (store.SchemaVersion)
//	head/<table>                the table's head: its roundtable.Summary
//	                            (Events is its last Seq) and how many ended
//	                            rounds its snapshot stores apart
//	log/<table>/<seq>           event JSON
//	snap/<table>                the latest snapshot's head, as package
//	                            store encodes it (only its fixed part when
//	                            the state is split into parts)
//	snappart/<table>/<seq>/<n>  part n of the state of the snapshot at seq
//	round/<table>/<n>           ended round n of the snapshot
//	pending/<table>             the writer of an append too large for one
//	                            etcd transaction (see below)
//	member/<id>, own/<table>,   the processes that share the store, the
//	unit/<name>, pace/<name>    tables each owns and the units each holds
//	                            (cluster.go)
//	bind/<key>                  binding: "discord:<channelID>" → table ID
//	blob/<ns>/<key>             adapter bookkeeping (outbox records, rooms)
//	ann/<table>/<key>           annotation, keyed as store.AnnotationKey
//
// Fencing: every write to a table compares the mod revision of its head
// key with the one the writer last read, and writes the head again. Two
// writers of a table can never interleave or lose an event: the second
// one's transaction fails, and Append returns an error with code
// roundtable.Conflict unless its events still follow the log (a stale
// cache), when it tries again, or the log already holds exactly these
// events (an append retried after a reply lost on the network lands
// once, not twice). Options.Guard adds comparisons of its own, and so
// does a joined Cluster (that this process still owns the table); a write
// they refuse returns an error that matches ErrFenced.
//
// Size: etcd takes at most MaxTxnOps operations and MaxRequestBytes bytes
// per transaction (128 and 1.5 MiB by default). An append that does not
// fit (a long batch, a snapshot with many ended rounds or a large state)
// is written in several transactions, all compared against the same head,
// the last of which writes the head: readers read a table at the revision
// of its head and never past its last Seq and stored rounds, so what the
// earlier transactions wrote stays invisible until the last commits, and
// an append is all or nothing as with the file. A pending/<table> key
// names the writer of such an append; each of its transactions checks it,
// so two of them cannot mix their parts (a new one takes the key over,
// which stops the old one). A single event larger than a transaction is
// refused (code roundtable.Invalid); a snapshot with an ended round that
// large is left out (the table reads its rounds from its log). Batches of
// blobs and annotations beyond one transaction are written in order, in
// several.
package etcdstore

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"google.golang.org/grpc"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// Defaults of Options.
const (
	DefaultPrefix          = "/roundtable/"
	DefaultDialTimeout     = 5 * time.Second
	DefaultMaxTxnOps       = 128                 // etcd's --max-txn-ops
	DefaultMaxRequestBytes = 3 * 1024 * 1024 / 2 // etcd's --max-request-bytes
	DefaultRequestTimeout  = 5 * time.Second
)

// ErrFenced matches (with errors.Is) the error of a write that
// Options.Guard refused: the process lost the right to write the table.
var ErrFenced = errors.New("the write was fenced off")

// errReadOnly is the error of a write to a store opened read-only.
var errReadOnly = errors.New("the store is open read-only")

// Options configure Open.
type Options struct {
	// Endpoints are the client URLs of the etcd cluster.
	Endpoints []string
	// Prefix is put before every key; DefaultPrefix when empty. Several
	// stores can share a cluster under different prefixes.
	Prefix string
	// DialTimeout bounds the first contact; DefaultDialTimeout when zero.
	DialTimeout time.Duration
	// RequestTimeout bounds each request to the cluster that its caller
	// gave no earlier deadline (DefaultRequestTimeout when zero): a member
	// that never answers (stalled, overloaded) fails the request, which
	// is tried again, instead of holding its caller for good.
	RequestTimeout time.Duration
	// Username and Password authenticate with etcd when set.
	Username, Password string
	// TLS secures the connection (https:// endpoints).
	TLS *tls.Config
	// ReadOnly refuses writes.
	ReadOnly bool
	// MaxTxnOps and MaxRequestBytes are the cluster's limits per
	// transaction (etcd's --max-txn-ops and --max-request-bytes); the
	// defaults are etcd's.
	MaxTxnOps, MaxRequestBytes int
	// Guard, when set, returns comparisons that every write to table must
	// also pass (an ownership layer's lease key, for example). A write
	// they refuse fails with an error that matches ErrFenced.
	Guard func(table string) []clientv3.Cmp
}

// DB is a store.Backend in etcd. It is safe for concurrent use.
type DB struct {
	cli     *clientv3.Client
	own     bool // Close closes cli
	keys    keys
	opt     Options
	heads   headCache
	cluster atomic.Pointer[Cluster] // joined by this process, if any
	closed  sync.Once
}

var _ store.Backend = (*DB)(nil)

// Open connects to the cluster and checks (or, unless read-only, writes)
// the layout version under the prefix.
func Open(ctx context.Context, opt Options) (*DB, error) {
	opt = opt.withDefaults()
	if len(opt.Endpoints) == 0 {
		return nil, errors.New("open etcd store: no endpoints")
	}
	cli, err := clientv3.New(clientv3.Config{Endpoints: opt.Endpoints, DialTimeout: opt.DialTimeout,
		Username: opt.Username, Password: opt.Password, TLS: opt.TLS, Logger: zap.NewNop(), Context: ctx,
		DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(requestTimeout(opt.RequestTimeout))}})
	if err != nil {
		return nil, fmt.Errorf("open etcd store at %s: %w", strings.Join(opt.Endpoints, ","), err)
	}
	db, err := New(ctx, cli, opt)
	if err != nil {
		return nil, errors.Join(err, cli.Close())
	}
	db.own = true
	return db, nil
}

// New is Open over a client the caller keeps (and closes after the DB).
func New(ctx context.Context, cli *clientv3.Client, opt Options) (*DB, error) {
	opt = opt.withDefaults()
	db := &DB{cli: cli, keys: keys{opt.Prefix}, opt: opt}
	ctx, cancel := context.WithTimeout(ctx, opt.DialTimeout)
	defer cancel()
	if err := db.init(ctx); err != nil {
		return nil, fmt.Errorf("open etcd store %s: %w", db, err)
	}
	return db, nil
}

func (o Options) withDefaults() Options {
	if o.Prefix == "" {
		o.Prefix = DefaultPrefix
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = DefaultDialTimeout
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.MaxTxnOps <= 0 {
		o.MaxTxnOps = DefaultMaxTxnOps
	}
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = DefaultMaxRequestBytes
	}
	return o
}

// init writes the schema version of a new prefix and checks it.
func (db *DB) init(ctx context.Context) error {
	k := db.keys.schema()
	var v []byte
	if db.opt.ReadOnly {
		resp, err := db.cli.Get(ctx, k)
		if err != nil {
			return fmt.Errorf("read schema version: %w", err)
		}
		if len(resp.Kvs) == 0 {
			return errors.New("no roundtable store is there (no schema version)")
		}
		v = resp.Kvs[0].Value
	} else {
		resp, err := db.cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(k), "=", 0)).
			Then(clientv3.OpPut(k, store.SchemaVersion)).Else(clientv3.OpGet(k)).Commit()
		if err != nil {
			return fmt.Errorf("write schema version: %w", err)
		}
		v = []byte(store.SchemaVersion)
		if !resp.Succeeded {
			v = resp.Responses[0].GetResponseRange().Kvs[0].Value
		}
	}
	if string(v) != store.SchemaVersion {
		return fmt.Errorf("schema version %q is not supported (want %q)", v, store.SchemaVersion)
	}
	return nil
}

// String names the store: its endpoints and prefix.
func (db *DB) String() string {
	return fmt.Sprintf("etcd %s prefix %s", strings.Join(db.opt.Endpoints, ","), db.opt.Prefix)
}

// Prefix is the prefix of the store's keys.
func (db *DB) Prefix() string { return db.opt.Prefix }

// Client is the etcd client the store writes through.
func (db *DB) Client() *clientv3.Client { return db.cli }

// Close closes the client if Open made it. Calls in progress fail.
func (db *DB) Close() error {
	var err error
	db.closed.Do(func() {
		if db.own {
			err = db.cli.Close()
		}
	})
	if err != nil {
		return fmt.Errorf("close %s: %w", db, err)
	}
	return nil
}

// checkWrite reports, wrapped with op, why the store cannot write now.
func (db *DB) checkWrite(ctx context.Context, op string) error {
	if err := checkCtx(ctx, op); err != nil {
		return err
	}
	if db.opt.ReadOnly {
		return fmt.Errorf("%s: %w", op, errReadOnly)
	}
	return nil
}

// checkCtx reports, wrapped with op, an error if ctx is already done.
func checkCtx(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// conflict is the error of an append whose events do not follow the log.
func conflict(table string, seq, last uint64) error {
	return roundtable.Errorf(roundtable.Conflict, "table %s: event seq %d does not follow %d", table, seq, last)
}

// fenced is the error of a write that Options.Guard refused.
func fenced(table string) error {
	return &roundtable.Error{Code: roundtable.Conflict, Message: "table " + table, Err: ErrFenced}
}
