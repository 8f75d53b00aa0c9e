package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"time"
)

// scriptedPerson starts tables in the web channel and acts in each phase
// over HTTP, the way the room page does, through every kill of the server:
// a request that gets no answer is sent again with the same act ID.
type scriptedPerson struct {
	base   string
	client *http.Client
	tag    string // starts its act IDs, so that several people's differ
	// phases are the phase durations of the tables it starts (the
	// server's defaults when empty): a table whose start the person
	// never heard back of runs out on them.
	phases url.Values

	mu       sync.Mutex
	rooms    []string
	endedSet map[string]bool
	acked    []string
	noStart  bool
	idle     chan struct{}
	progress chan struct{} // a table started or an act acknowledged
	n        int

	watch watchdog // fails the test, with a diagnosis, when the person is stuck
}

func newScriptedPerson(base string) *scriptedPerson {
	jar, _ := cookiejar.New(nil)
	return &scriptedPerson{base: base, client: &http.Client{Jar: jar, Timeout: 10 * time.Second}, tag: "k",
		endedSet: map[string]bool{}, idle: make(chan struct{}), progress: make(chan struct{}, 1),
		watch: newWatchdog(stallPolls)}
}

// feedView is what the person reads of a room's feed.
type feedView struct {
	Posts []struct {
		Text string `json:"text"`
	} `json:"posts"`
	State struct {
		Status string `json:"status"`
		Round  int    `json:"round"`
		Phase  string `json:"phase"`
	} `json:"state"`
}

func (f feedView) has(prefix string) bool {
	for _, p := range f.Posts {
		if strings.HasPrefix(p.Text, prefix) {
			return true
		}
	}
	return false
}

// run plays until ctx is done.
func (p *scriptedPerson) run(ctx context.Context) {
	for !p.named(ctx) {
		if !pause(ctx) {
			return
		}
	}
	p.watch.note("named: user %s", p.user())
	room, acted := "", ""
	for ctx.Err() == nil {
		p.watch.sameUser(p.user())
		if room == "" {
			room = p.startTable(ctx)
			continue
		}
		f, err := p.feed(ctx, room)
		if err != nil {
			pause(ctx)
			continue
		}
		pos := fmt.Sprintf("%d/%s", f.State.Round, f.State.Phase)
		p.watch.polled(room, fmt.Sprintf("%s %s (%d posts; acted in %q)", f.State.Status, pos, len(f.Posts), acted))
		switch {
		case f.State.Status == "ended":
			p.mu.Lock()
			p.endedSet[room] = true
			p.mu.Unlock()
			room = ""
		case f.State.Status != "running" || pos == acted:
			pause(ctx)
		case p.act(ctx, room, f.State.Round, f.State.Phase):
			acted = pos
		}
	}
}

// named chooses the person's name.
func (p *scriptedPerson) named(ctx context.Context) bool {
	_, err := p.post(ctx, "/name", url.Values{"name": {"Alice"}, "next": {"/"}})
	return err == nil
}

// startTable starts a table and returns its room ("" when the request
// failed or starting is over).
func (p *scriptedPerson) startTable(ctx context.Context) string {
	p.mu.Lock()
	if p.noStart {
		p.mu.Unlock()
		select {
		case <-p.idle:
		default:
			close(p.idle)
		}
		<-ctx.Done()
		return ""
	}
	p.n++
	n := p.n
	p.mu.Unlock()
	form := url.Values{"nonce": {fmt.Sprintf("kill-%d", n)}, "name": {"Alice"}, "topic": {fmt.Sprintf("Kill %d", n)},
		"rounds": {"2"}, "mode": {"sealed"}, "agents_set": {"1"}, "start": {"full"}, "seats": {"1"}} // Alice alone: it starts at once
	for k, v := range p.phases {
		form[k] = v
	}
	resp, err := p.post(ctx, "/start", form)
	if err != nil || !strings.HasPrefix(resp.Request.URL.Path, "/r/") {
		p.watch.note("start kill-%d: %v", n, err)
		pause(ctx) // a table may have been started without our knowing: its posts are checked all the same
		return ""
	}
	room := strings.TrimPrefix(resp.Request.URL.Path, "/r/")
	p.watch.note("start kill-%d: room %s as user %s", n, room, p.user())
	p.mu.Lock()
	p.rooms = append(p.rooms, room)
	p.mu.Unlock()
	p.progressed()
	return room
}

// act acts once in the open phase, sending the same act until the server
// answers; it reports whether the act was acknowledged.
func (p *scriptedPerson) act(ctx context.Context, room string, round int, phase string) bool {
	p.mu.Lock()
	p.n++
	id := fmt.Sprintf("%s%d", p.tag, p.n)
	p.mu.Unlock()
	body := map[string]any{"id": id}
	switch phase {
	case "message":
		body["kind"], body["text"] = "message", fmt.Sprintf("message %d of %s", round, id)
	case "proposal":
		body["kind"], body["command"], body["options"] = "command", "propose", map[string]string{"text": "plan " + id}
	case "vote":
		body["kind"], body["command"], body["options"] = "command", "vote", map[string]string{"ballot": "A"}
	default:
		return false
	}
	raw, _ := json.Marshal(body)
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.base+"/r/"+room+"/act", strings.NewReader(string(raw)))
		req.Header.Set("Content-Type", "application/json")
		resp, err := p.client.Do(req)
		if err != nil {
			p.watch.note("act %s %s in %d/%s: %v", id, room, round, phase, err)
			pause(ctx)
			continue // no answer: the same act again
		}
		var ar struct {
			OK      bool     `json:"ok"`
			Error   string   `json:"error"`
			Replies []string `json:"replies"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&ar)
		resp.Body.Close()
		p.watch.note("act %s %s in %d/%s as user %s: %s ok=%v error=%q replies=%q", id, room, round, phase, p.user(), resp.Status, ar.OK, ar.Error, ar.Replies)
		if resp.StatusCode == http.StatusServiceUnavailable {
			pause(ctx)
			continue
		}
		if resp.StatusCode != http.StatusOK || !acknowledged(ar.Replies) {
			return false
		}
		p.mu.Lock()
		p.acked = append(p.acked, id)
		p.mu.Unlock()
		p.progressed()
		return true
	}
	return false
}

// acknowledged tells a recorded act from a refused one by the bot's
// replies.
func acknowledged(replies []string) bool {
	for _, r := range replies {
		if !strings.Contains(r, "is recorded") && !strings.Contains(r, "already recorded") {
			return false
		}
	}
	return true
}

func (p *scriptedPerson) feed(ctx context.Context, room string) (feedView, error) {
	var f feedView
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.base+"/r/"+room+"/feed", nil)
	resp, err := p.client.Do(req)
	if err != nil {
		return f, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return f, fmt.Errorf("feed: %s", resp.Status)
	}
	return f, json.NewDecoder(resp.Body).Decode(&f)
}

func (p *scriptedPerson) post(ctx context.Context, path string, form url.Values) (*http.Response, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s: %s", path, resp.Status)
	}
	return resp, nil
}

// waitUp waits until the server answers (or exits). It asks as nobody:
// with the person's cookies, its first request (sent before the person had
// any) would be given a user of its own whose cookie could replace the
// person's, who then no longer sits at the table it started.
func (p *scriptedPerson) waitUp(ctx context.Context, exited <-chan struct{}) {
	probe := &http.Client{Timeout: p.client.Timeout}
	for {
		select {
		case <-exited:
			return
		default:
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.base+"/", nil)
		resp, err := probe.Do(req)
		if err == nil {
			p.watch.note("up: %s", resp.Status)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if !pause(ctx) {
			return
		}
	}
}

func (p *scriptedPerson) progressed() {
	p.watch.progressed()
	select {
	case p.progress <- struct{}{}:
	default:
	}
}

// waitProgress waits for the person's next step forward (or the server's
// exit).
func (p *scriptedPerson) waitProgress(ctx context.Context, exited <-chan struct{}) {
	select {
	case <-p.progress: // from before: drop it
	default:
	}
	select {
	case <-p.progress:
	case <-exited:
	case <-p.watch.stalled:
	case <-ctx.Done():
	}
}

// stopStarting lets the person finish the table under way and start no
// other.
func (p *scriptedPerson) stopStarting() {
	p.mu.Lock()
	p.noStart = true
	p.mu.Unlock()
}

// waitIdle waits until the person has finished its last table.
func (p *scriptedPerson) waitIdle(ctx context.Context) {
	select {
	case <-p.idle:
	case <-p.watch.stalled:
	case <-ctx.Done():
	}
}

func (p *scriptedPerson) ended() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.endedSet)
}

func (p *scriptedPerson) roomList() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.rooms...)
}

func (p *scriptedPerson) acknowledged() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.acked...)
}

// pause paces retries against a server that is restarting.
func pause(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(20 * time.Millisecond):
		return true
	}
}

// user is the user ID of the person's cookie.
func (p *scriptedPerson) user() string {
	u, _ := url.Parse(p.base)
	for _, c := range p.client.Jar.Cookies(u) {
		if c.Name == "rt_user" {
			id, _, _ := strings.Cut(c.Value, ".")
			return id
		}
	}
	return "(none)"
}
