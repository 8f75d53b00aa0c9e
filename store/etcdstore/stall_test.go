package etcdstore_test

import (
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/store/etcdstore"
	"github.com/roundtable-ai/roundtable/store/etcdstore/etcdtest"
)

// TestLeaseOutlivesAStalledMember stalls one member of three (its
// connections stay open, nothing comes back, as from a member stuck on
// its disk) for twice the lease's time to live: the process keeps its
// lease through the others, loses none of its tables and appends to them
// once the stall ends.
func TestLeaseOutlivesAStalledMember(t *testing.T) {
	ctx := t.Context()
	c, err := etcdtest.Start(t.TempDir(), etcdtest.Options{Members: 3, NoFsync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	stuck := newStallProxy(t, c.Endpoints()[0])
	db := c.Open(t, etcdstore.Options{Endpoints: append([]string{stuck.url()}, c.Endpoints()[1:]...)})
	cl, err := db.Join(ctx, etcdstore.ClusterOptions{TTL: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cl.Leave(ctx) }()
	if ok, err := cl.Acquire(ctx, "t1"); !ok || err != nil {
		t.Fatalf("acquire t1: %t, %v", ok, err)
	}
	started(t, db, "t1")
	held := cl.Lease()

	stuck.stall()
	over := time.After(2 * cl.TTL()) // the lease had to be renewed through the others
	for stalled := true; stalled; {
		select {
		case ch := <-cl.Changes():
			if ch.Kind == etcdstore.Lost {
				t.Fatalf("lost %s while one member of three stalled", ch.Table)
			}
		case <-over:
			stalled = false
		}
	}
	stuck.resume()
	if got := cl.Lease(); got != held {
		t.Fatalf("the lease is %x after the stall, want %x kept", got, held)
	}
	if err := db.Append(ctx, "t1", messages("t1", 3, 1, "after the stall")); err != nil {
		t.Fatalf("append after the stall: %v", err)
	}
}

// TestRequestsGoOnWhenAMemberStalls stalls one member of three for good
// and campaigns for tables and appends to them: the requests the client
// sends to the stalled member (it spreads them over all three) are given
// up after the request timeout and sent again, through the others. Before
// requests had a deadline, one sent to a stalled member waited for ever:
// a process's start hung on one campaign for minutes.
func TestRequestsGoOnWhenAMemberStalls(t *testing.T) {
	ctx := t.Context()
	c, err := etcdtest.Start(t.TempDir(), etcdtest.Options{Members: 3, NoFsync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	stuck := newStallProxy(t, c.Endpoints()[0])
	db := c.Open(t, etcdstore.Options{Endpoints: append([]string{stuck.url()}, c.Endpoints()[1:]...), RequestTimeout: 300 * time.Millisecond})
	cl, err := db.Join(ctx, etcdstore.ClusterOptions{TTL: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cl.Leave(ctx) }()
	stuck.stall()
	defer stuck.resume()
	for i := range 6 {
		table := fmt.Sprintf("t%d", i)
		if ok, err := cl.Acquire(ctx, table); !ok || err != nil {
			t.Fatalf("acquire %s with a member stalled: %t, %v", table, ok, err)
		}
		started(t, db, table)
		if err := db.Append(ctx, table, messages(table, 3, 1, "beside a stalled member")); err != nil {
			t.Fatalf("append to %s with a member stalled: %v", table, err)
		}
	}
}

// stallProxy forwards TCP to an address and can stop forwarding without
// closing anything, as a stalled peer does.
type stallProxy struct {
	l      net.Listener
	target string

	mu      sync.Mutex
	open    chan struct{} // closed while bytes flow
	stalled bool
	conns   []net.Conn
}

func newStallProxy(t *testing.T, endpoint string) *stallProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallProxy{l: l, target: endpoint[len("http://"):], open: make(chan struct{})}
	close(p.open)
	go p.serve()
	t.Cleanup(p.close)
	return p
}

func (p *stallProxy) url() string { return "http://" + p.l.Addr().String() }

func (p *stallProxy) serve() {
	for {
		in, err := p.l.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = in.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, in, out)
		p.mu.Unlock()
		go p.pipe(in, out)
		go p.pipe(out, in)
	}
}

// pipe copies from to to, holding each read back while stalled.
func (p *stallProxy) pipe(from, to net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := from.Read(buf)
		if n > 0 {
			<-p.gate()
			if _, werr := to.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				_ = to.Close()
			}
			return
		}
	}
}

func (p *stallProxy) gate() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.open
}

func (p *stallProxy) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.open, p.stalled = make(chan struct{}), true
}

func (p *stallProxy) resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stalled {
		close(p.open)
		p.stalled = false
	}
}

func (p *stallProxy) close() {
	_ = p.l.Close()
	p.resume()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.Close()
	}
}
