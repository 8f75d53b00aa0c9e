package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/store/etcdstore"
	"github.com/roundtable-ai/roundtable/store/etcdstore/etcdtest"
)

// fleet is several serve processes (the test binary run as the command)
// on one etcd cluster embedded in the test, behind a load balancer: what
// docs/operations.md describes, on one machine.
type fleet struct {
	t      testing.TB
	etcd   *etcdtest.Cluster
	config string
	db     *etcdstore.DB // the test's own view of the store
	lb     *balancer
	procs  []*fleetProc
	obs    *observer
}

// fleetProc is one serve slot: its web address is kept across restarts.
type fleetProc struct {
	name   string
	addr   string
	c      *child
	member string // its member ID in the cluster
}

// fleetOptions size a fleet.
type fleetOptions struct {
	processes int
	members   int           // etcd members
	leaseTTL  time.Duration // store.lease_ttl
}

// startFleet starts the etcd cluster, the observer and the processes.
func startFleet(t testing.TB, opt fleetOptions) *fleet {
	dir, err := os.MkdirTemp("", "roundtable-fleet-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	c, err := etcdtest.Start(dir, etcdtest.Options{Members: opt.members, NoFsync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	prefix := "/fleet/"
	f := &fleet{t: t, etcd: c, lb: newBalancer(t)}
	f.config = writeConfig(t, fmt.Sprintf("[store]\nbackend = \"etcd\"\nendpoints = [\"%s\"]\nprefix = %q\nlease_ttl = %q\n\n[web]\nopen_lobby = true\n",
		strings.Join(c.Endpoints(), `", "`), prefix, opt.leaseTTL))
	f.db, err = etcdstore.Open(context.Background(), etcdstore.Options{Endpoints: c.Endpoints(), Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.db.Close() })
	f.obs = newObserver(t, f.db)
	for i := range opt.processes {
		p := &fleetProc{name: fmt.Sprintf("p%d", i), addr: freeAddr(t)}
		f.procs = append(f.procs, p)
		f.start(p)
	}
	t.Cleanup(f.stopAll)
	return f
}

// start starts p's serve and puts it behind the balancer once it listens.
func (f *fleet) start(p *fleetProc) {
	args, _ := json.Marshal([]string{"--config", f.config, "--log-level", "info", "serve", "--web-addr", p.addr})
	p.c = startChild(f.t, args)
	p.member = p.c.waitFor(f.t, memberRe)[1]
	p.c.waitFor(f.t, webURL)
	f.lb.set(p.name, "http://"+p.addr)
}

// kill SIGKILLs p, as a crash of its machine would, and returns when.
func (f *fleet) kill(p *fleetProc) time.Time {
	f.lb.set(p.name, "")
	at := time.Now()
	if err := p.c.cmd.Process.Kill(); err != nil {
		f.t.Fatal(err)
	}
	<-p.c.exited
	return at
}

// stopAll kills every process still running.
func (f *fleet) stopAll() {
	for _, p := range f.procs {
		select {
		case <-p.c.exited:
		default:
			_ = p.c.cmd.Process.Kill()
			<-p.c.exited
		}
	}
}

// waitFor waits until the child's output matches re (or it exits).
func (c *child) waitFor(t testing.TB, re *regexp.Regexp) []string {
	t.Helper()
	for {
		if m := re.FindStringSubmatch(c.out.String()); m != nil {
			return m
		}
		select {
		case <-c.exited:
			t.Fatalf("serve exited:\n%s", tail(c.out.String(), 4000))
		case <-c.out.wrote:
		}
	}
}

// mentions returns, for each of tables, the lines of the processes' output
// that name it, and who owns it: what a failed takeover is diagnosed by.
func (f *fleet) mentions(tables []string) string {
	var b strings.Builder
	for _, id := range tables {
		f.obs.mu.Lock()
		fmt.Fprintf(&b, "table %s (owner %q, status %s):\n", id, f.obs.owner[id].member, f.obs.tables[id].status)
		f.obs.mu.Unlock()
		for _, p := range f.procs {
			for line := range strings.Lines(p.c.out.String()) {
				if strings.Contains(line, id) {
					fmt.Fprintf(&b, "  %s (%s): %s", p.name, p.member, line)
				}
			}
		}
	}
	return b.String()
}

// lastWords returns the end of each process's output.
func (f *fleet) lastWords() string {
	var b strings.Builder
	for _, p := range f.procs {
		fmt.Fprintf(&b, "%s (%s):\n%s\n", p.name, p.member, tail(p.c.out.String(), 3000))
	}
	return b.String()
}
