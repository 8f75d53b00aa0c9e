// Package etcdtest runs an etcd cluster inside a test process (etcd's
// embed package), for the tests of the etcd store and of what runs on it.
// Start one cluster per test package (in TestMain) and give each test a
// store under a prefix of its own (Cluster.Open): starting a member takes
// about a second, a prefix nothing.
package etcdtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"

	"github.com/roundtable-ai/roundtable/store/etcdstore"
)

// startTimeout bounds the wait for a cluster to elect a leader.
const startTimeout = time.Minute

// Options tune Start.
type Options struct {
	// Members is the cluster's size; 1 when zero.
	Members int
	// NoFsync makes the members skip fsync (etcd's --unsafe-no-fsync):
	// faster tests, no durability. Benchmarks leave it off.
	NoFsync bool
}

// Cluster is a running embedded cluster.
type Cluster struct {
	members   []*embed.Etcd
	endpoints []string
	prefixes  atomic.Int64
}

// Start starts a cluster whose members keep their data under dir and
// listen on 127.0.0.1, and waits until it has a leader.
func Start(dir string, opt Options) (*Cluster, error) {
	n := max(opt.Members, 1)
	peers, err := freeURLs(n)
	if err != nil {
		return nil, err
	}
	var initial []string
	for i, u := range peers {
		initial = append(initial, fmt.Sprintf("m%d=%s", i, u.String()))
	}
	c := &Cluster{}
	for i := range n {
		cfg := embed.NewConfig()
		cfg.Name = fmt.Sprintf("m%d", i)
		cfg.Dir = filepath.Join(dir, cfg.Name)
		client := url.URL{Scheme: "http", Host: "127.0.0.1:0"}
		cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{client}, []url.URL{client}
		cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{peers[i]}, []url.URL{peers[i]}
		cfg.InitialCluster = strings.Join(initial, ",")
		cfg.InitialClusterToken = "roundtable-test"
		cfg.UnsafeNoFsync = opt.NoFsync
		cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
		e, err := embed.StartEtcd(cfg)
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("start etcd member %s: %w", cfg.Name, err)
		}
		c.members = append(c.members, e)
		c.endpoints = append(c.endpoints, "http://"+e.Clients[0].Addr().String())
	}
	for _, e := range c.members {
		select {
		case <-e.Server.ReadyNotify():
		case err := <-e.Err():
			c.Close()
			return nil, fmt.Errorf("etcd member %s: %w", e.Config().Name, err)
		case <-time.After(startTimeout):
			c.Close()
			return nil, errors.New("the embedded etcd cluster did not become ready")
		}
	}
	return c, nil
}

// freeURLs finds n free ports for the members' peer URLs, which every
// member must know before any starts.
func freeURLs(n int) ([]url.URL, error) {
	var out []url.URL
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("find a free port: %w", err)
		}
		out = append(out, url.URL{Scheme: "http", Host: l.Addr().String()})
		if err := l.Close(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Endpoints are the members' client URLs.
func (c *Cluster) Endpoints() []string { return c.endpoints }

// Stop stops member i, as a crash of its machine would.
func (c *Cluster) Stop(i int) {
	if e := c.members[i]; e != nil {
		e.Close()
		c.members[i] = nil
	}
}

// Close stops every member still running.
func (c *Cluster) Close() {
	for i := range c.members {
		c.Stop(i)
	}
}

// Prefix returns a key prefix no other caller got, named after t.
func (c *Cluster) Prefix(t testing.TB) string {
	name := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	return fmt.Sprintf("/test/%s-%d/", name, c.prefixes.Add(1))
}

// Open opens a store under a new prefix, closed when t ends. opt's
// Endpoints and Prefix are filled in when empty.
func (c *Cluster) Open(t testing.TB, opt etcdstore.Options) *etcdstore.DB {
	t.Helper()
	if len(opt.Endpoints) == 0 {
		opt.Endpoints = c.endpoints
	}
	if opt.Prefix == "" {
		opt.Prefix = c.Prefix(t)
	}
	db, err := etcdstore.Open(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}
