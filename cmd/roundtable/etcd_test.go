package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/store/etcdstore/etcdtest"
)

// sharedEtcd is the one-member etcd cluster the package's tests share,
// each under a prefix of its own: the first test that needs it starts it,
// TestMain stops it.
var sharedEtcd struct {
	once sync.Once
	c    *etcdtest.Cluster
	dir  string
	err  error
}

func etcdCluster(t *testing.T) *etcdtest.Cluster {
	t.Helper()
	sharedEtcd.once.Do(func() {
		if sharedEtcd.dir, sharedEtcd.err = os.MkdirTemp("", "roundtable-etcd-"); sharedEtcd.err == nil {
			sharedEtcd.c, sharedEtcd.err = etcdtest.Start(sharedEtcd.dir, etcdtest.Options{NoFsync: true})
		}
	})
	if sharedEtcd.err != nil {
		t.Fatal(sharedEtcd.err)
	}
	return sharedEtcd.c
}

func stopEtcd() {
	if sharedEtcd.c != nil {
		sharedEtcd.c.Close()
	}
	if sharedEtcd.dir != "" {
		os.RemoveAll(sharedEtcd.dir)
	}
}

// etcdConfig writes a config whose store is a new prefix of the shared
// cluster, followed by more.
func etcdConfig(t *testing.T, more string) string {
	t.Helper()
	c := etcdCluster(t)
	return writeConfig(t, fmt.Sprintf("[store]\nbackend = \"etcd\"\nendpoints = [%q]\nprefix = %q\n%s", strings.Join(c.Endpoints(), `", "`), c.Prefix(t), more))
}
