package etcdstore_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/roundtable-ai/roundtable/store/etcdstore"
	"github.com/roundtable-ai/roundtable/store/etcdstore/etcdtest"
	"github.com/roundtable-ai/roundtable/store/storetest"
)

// cluster is the one-member cluster the package's tests share, each under
// a prefix of its own.
var cluster *etcdtest.Cluster

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "etcdstore-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	cluster, err = etcdtest.Start(dir, etcdtest.Options{NoFsync: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer cluster.Close()
	return m.Run()
}

// openTest opens a store under a new prefix of the shared cluster.
func openTest(t testing.TB, opt etcdstore.Options) *etcdstore.DB { return cluster.Open(t, opt) }

// backend is the etcd store for the conformance suite.
func backend(opt etcdstore.Options) storetest.Backend {
	return storetest.Backend{
		Open: func(t *testing.T) storetest.Store { return openTest(t, opt) },
		Reopen: func(t *testing.T, s storetest.Store, readOnly bool) storetest.Store {
			db := s.(*etcdstore.DB)
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			re := opt
			re.Prefix, re.ReadOnly = db.Prefix(), readOnly
			return openTest(t, re)
		},
	}
}

func TestSuite(t *testing.T) {
	t.Parallel()
	storetest.Run(t, backend(etcdstore.Options{}))
}
