package store

import (
	"context"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Backend is everything the program uses of a store of tables, whichever
// database keeps it: a bbolt file (*DB) or an etcd cluster
// (etcdstore.DB). Both pass the same conformance suites (package
// storetest), and Copy moves everything from one to the other.
type Backend interface {
	roundtable.ArchiveStore
	roundtable.AnnotationStore
	// LoadFrom returns a table's events from Seq fromSeq on.
	LoadFrom(ctx context.Context, table string, fromSeq uint64) ([]roundtable.Event, error)
	PutAnnotations(ctx context.Context, as []roundtable.Annotation) error

	Bind(ctx context.Context, key, table string) error
	Lookup(ctx context.Context, key string) (table string, ok bool, err error)
	Unbind(ctx context.Context, key string) error

	PutBlob(ctx context.Context, ns, key string, v []byte) error
	GetBlob(ctx context.Context, ns, key string) (v []byte, ok bool, err error)
	PutBlobs(ctx context.Context, ns string, kv map[string][]byte) error
	Blobs(ctx context.Context, ns, prefix string) (map[string][]byte, error)
	BlobRanges(ctx context.Context, ns string, ranges [][2]string) (map[string][]byte, error)
	AddBlob(ctx context.Context, ns, key string, v []byte) error
	AddBlobs(ctx context.Context, recs []roundtable.Blob) error
	EachBlob(ctx context.Context, ns string, fn func(key string, v []byte) error) error
	DeleteBlob(ctx context.Context, ns, key string) error
	DropBlobs(ctx context.Context, ns string) error

	Walker
	Close() error
}

// Walker lists what a store keeps beside the tables' logs, so that Copy
// can move it.
type Walker interface {
	// Bindings calls fn with every binding, in key order.
	Bindings(ctx context.Context, fn func(key, table string) error) error
	// BlobNamespaces lists the namespaces that hold blobs, in order.
	BlobNamespaces(ctx context.Context) ([]string, error)
	// AnnotatedTables lists the tables that have annotations, in order
	// (a table may have annotations and no log).
	AnnotatedTables(ctx context.Context) ([]string, error)
}

var _ Backend = (*DB)(nil)
