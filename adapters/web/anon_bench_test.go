package web

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/roundtable-ai/roundtable/bot"
)

// BenchmarkAnonymousRequests sends b.N requests without a cookie or a
// link, over real sockets, as anyone who can reach the port can: half
// are refused starts (POST /start to a lobby that only the host link
// opens), half lobby streams (GET /live) read to their first event and
// dropped. It reports the live heap after a GC before and after them:
// what the server keeps per visitor stays flat. Run with
//
//	go test -run '^$' -bench AnonymousRequests -benchtime 200000x ./adapters/web/
func BenchmarkAnonymousRequests(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := New(Config{Addr: "127.0.0.1:0", Secret: []byte("bench")}, nil)
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx, func(context.Context, *bot.Event) {}) }()
	<-p.Ready()
	base := strings.TrimSuffix(p.URL(), "/")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	before := liveHeap()
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	for range 8 {
		wg.Go(func() {
			for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
				var err error
				if i%2 == 0 {
					err = refusedStart(ctx, client, base, i)
				} else {
					err = firstLobbyEvent(ctx, client, base)
				}
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	after := liveHeap()
	b.ReportMetric(float64(before)/(1<<20), "heap-before-MB")
	b.ReportMetric(float64(after)/(1<<20), "heap-after-MB")
	b.ReportMetric(float64(int64(after)-int64(before))/float64(b.N), "retained-B/req")
	cancel()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// refusedStart posts the create form without a cookie to a lobby that
// only the host link opens.
func refusedStart(ctx context.Context, c *http.Client, base string, i int64) error {
	form := url.Values{"name": {"Mallory"}, "nonce": {fmt.Sprintf("n%d", i)}, "topic": {"x"}}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/start", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusForbidden {
		return fmt.Errorf("start without the host link: %s", resp.Status)
	}
	return nil
}

// firstLobbyEvent opens the lobby's stream without a cookie, reads its
// first event (or its refusal) and drops the connection.
func firstLobbyEvent(ctx context.Context, c *http.Client, base string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/live", nil)
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, resp.Body)
		return nil // refused: a cap is reached
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if !strings.HasPrefix(line, "id: ") {
		return fmt.Errorf("lobby stream began %q: %v", line, err)
	}
	return nil
}
