package web_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/web"
)

// TestSlowClientsAreCutAndLiveStreamsAreNot holds a live stream open
// while a slow body is cut by ReadTimeout and an idle connection by
// IdleTimeout; the stream outlives both, and WriteTimeout, and still
// delivers. The order of events, not a clock, proves the timeouts passed.
func TestSlowClientsAreCutAndLiveStreamsAreNot(t *testing.T) {
	const timeout = 300 * time.Millisecond
	e := newLiveEnv(t, web.Config{ReadTimeout: timeout, WriteTimeout: timeout, IdleTimeout: timeout})
	ann := e.browser(t, "Ann")
	room, _ := e.start(t, ann, nil)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", e.base+"/r/"+room+"/live", nil)
	resp, err := ann.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	updates := make(chan string, 16)
	go func() {
		_ = readStream(resp.Body, func(_ string, data []byte) { updates <- string(data) })
		close(updates)
	}()
	if _, ok := <-updates; !ok {
		t.Fatal("the live stream sent nothing")
	}

	host := strings.TrimPrefix(e.base, "http://")
	slow := dial(t, host)
	fmt.Fprintf(slow, "POST /name HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nname=Sl", host)
	if _, err := io.ReadAll(slow); err != nil { // the server answers and closes, or just closes
		t.Logf("slow body: %v", err)
	}
	idle := dial(t, host)
	fmt.Fprintf(idle, "GET /static/style.css HTTP/1.1\r\nHost: %s\r\n\r\n", host)
	r := bufio.NewReader(idle)
	first, err := http.ReadResponse(r, nil)
	if err != nil || first.StatusCode != http.StatusOK {
		t.Fatalf("keep-alive request: %v %v", first, err)
	}
	_, _ = io.Copy(io.Discard, first.Body)
	if n, err := r.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Errorf("an idle connection got %d bytes, %v; want it closed", n, err)
	}

	if code, a := e.act(t, ann, room, map[string]any{"kind": "command", "command": "status"}); code != http.StatusOK {
		t.Fatalf("status: %d %+v", code, a)
	}
	for u := range updates {
		if strings.Contains(u, `"private"`) && strings.Contains(u, "round 1 of 1") {
			return // the stream outlived the timeouts
		}
	}
	t.Errorf("the live stream ended before the status reply: %v", resp.Body)
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}
