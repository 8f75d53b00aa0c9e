package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// client is one user's browser in the harness.
type client struct {
	h    *harness
	u    bottest.User
	http *http.Client

	mu       sync.Mutex
	ready    bool
	entered  map[string]bool
	watching map[string]bool
	private  []bottest.Private
	files    []wireFile
	seen     map[string]bool
	form     openForm
	posts    map[string]map[string]wirePost
}

type openForm struct{ ID, Room string }

// The live stream's JSON, as far as the harness reads it.
type (
	wireUpdate struct {
		Posts   []wirePost    `json:"posts"`
		Private []wirePrivate `json:"private"`
	}
	wirePost struct {
		ID       string        `json:"id"`
		N        int           `json:"n"`
		Kind     string        `json:"kind"`
		Author   string        `json:"author"`
		Text     string        `json:"text"`
		Controls []wireControl `json:"controls"`
	}
	wireControl struct {
		ID      string `json:"id"`
		Kind    string `json:"kind"`
		Label   string `json:"label"`
		Options []struct {
			Value string `json:"value"`
		} `json:"options"`
	}
	wirePrivate struct {
		ID   string    `json:"id"`
		Kind string    `json:"kind"`
		Text string    `json:"text"`
		File *wireFile `json:"file"`
		Form *struct {
			ID     string `json:"id"`
			Title  string `json:"title"`
			Fields []struct {
				ID string `json:"id"`
			} `json:"fields"`
		} `json:"form"`
	}
)

func (h *harness) newClient(u bottest.User) *client {
	return &client{h: h, u: u, http: &http.Client{Jar: newJar()}, entered: map[string]bool{}, watching: map[string]bool{},
		seen: map[string]bool{}, posts: map[string]map[string]wirePost{}}
}

// setup names the browser and, for managers, opens the host link.
func (c *client) setup(ctx context.Context) error {
	c.mu.Lock()
	done := c.ready
	c.mu.Unlock()
	if done {
		return nil
	}
	if err := c.postForm(ctx, "/name", url.Values{"name": {c.u.Name}, "next": {"/"}}); err != nil {
		return err
	}
	if c.u.Manager {
		host, err := c.h.hostURL(ctx)
		if err != nil {
			return err
		}
		if err := c.get(ctx, host); err != nil {
			return err
		}
	}
	c.mu.Lock()
	c.ready = true
	c.mu.Unlock()
	return nil
}

// enter opens a room's join link (found by the watcher, who may list the
// rooms) and starts reading the room's live stream.
func (c *client) enter(ctx context.Context, room string) error {
	if err := c.setup(ctx); err != nil {
		return err
	}
	c.mu.Lock()
	done := c.entered[room]
	c.mu.Unlock()
	if done {
		return nil
	}
	rooms, err := c.h.watcher.roomList(ctx)
	if err != nil {
		return err
	}
	for _, r := range rooms {
		if r.ID != room {
			continue
		}
		if err := c.get(ctx, r.Join); err != nil {
			return err
		}
		c.mu.Lock()
		c.entered[room] = true
		c.mu.Unlock()
		c.watch("/r/"+room+"/live", room)
		return nil
	}
	return fmt.Errorf("harness: no room %s", room)
}

// start sends the create form.
func (c *client) start(ctx context.Context, opts map[string]string) error {
	if err := c.setup(ctx); err != nil {
		return err
	}
	form := url.Values{"nonce": {fmt.Sprintf("n%d", time.Now().UnixNano())}, "name": {c.u.Name}}
	for k, v := range opts {
		if k == "agents" {
			form.Set("agents_set", "1")
			for _, a := range strings.Split(v, ",") {
				form.Add("agents", a)
			}
			continue
		}
		form.Set(k, v)
	}
	err := c.postForm(ctx, "/start", form)
	var se *statusError
	if errors.As(err, &se) && se.code == http.StatusForbidden {
		c.refused(se.body) // a browser without the right to start: the page alone says why
		return nil
	}
	if errors.As(err, &se) && se.answered() {
		return nil // refused by the bot: the reason is on the lobby's live stream too
	}
	return err
}

// refused shows the user, as a private item, the reasons a page gives
// for refusing what they sent (the paragraphs of its alert).
func (c *client) refused(page string) {
	_, alert, ok := strings.Cut(page, `<div class="alert" role="alert">`)
	alert, _, _ = strings.Cut(alert, "</div>")
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, para := range strings.Split(alert, "<p>")[1:] {
		text, _, _ := strings.Cut(para, "</p>")
		c.private = append(c.private, bottest.Private{Text: html.UnescapeString(text)})
	}
}

// act posts an act in a room.
func (c *client) act(ctx context.Context, room string, body map[string]any) error {
	if err := c.enter(ctx, room); err != nil {
		return err
	}
	body["id"] = fmt.Sprintf("a%d", time.Now().UnixNano())
	raw, _ := json.Marshal(body) // plain data: cannot fail
	err := c.do(ctx, http.MethodPost, "/r/"+room+"/act", "application/json", bytes.NewReader(raw), nil)
	var se *statusError
	if errors.As(err, &se) && se.answered() && strings.Contains(se.body, `"ok":false`) {
		return nil // the bot answered with a refusal, shown on the live stream too
	}
	return err
}

// statusError is a response whose status is not 2xx.
type statusError struct {
	method, url, status string
	code                int
	body                string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%s %s: %s: %.500s", e.method, e.url, e.status, e.body)
}

// answered reports whether the status says the bot refused the request
// (rather than the server failing to take it).
func (e *statusError) answered() bool {
	switch e.code {
	case http.StatusBadRequest, http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity:
		return true
	}
	return false
}

func (c *client) postForm(ctx context.Context, path string, form url.Values) error {
	return c.do(ctx, http.MethodPost, path, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()), nil)
}

func (c *client) get(ctx context.Context, path string) error {
	return c.do(ctx, http.MethodGet, path, "", nil, nil)
}

func (c *client) getJSON(ctx context.Context, path string, v any) error {
	return c.do(ctx, http.MethodGet, path, "", nil, v)
}

// do sends a request to the current server; any status but 2xx (after
// redirects) is an error.
func (c *client) do(ctx context.Context, method, path, ctype string, body io.Reader, out any) error {
	if !strings.HasPrefix(path, "http") {
		base, err := c.h.base(ctx)
		if err != nil {
			return err
		}
		path = base + path
	}
	req, err := http.NewRequestWithContext(ctx, method, path, body)
	if err != nil {
		return err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return &statusError{method: method, url: path, status: resp.Status, code: resp.StatusCode, body: string(msg)}
	}
	if out != nil {
		return decode(resp.Body, out)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return nil
}

// watch reads a live stream in the background, reconnecting with the
// last event's ID when it drops (as EventSource does).
func (c *client) watch(path, room string) {
	c.mu.Lock()
	if c.watching[path] {
		c.mu.Unlock()
		return
	}
	c.watching[path] = true
	c.mu.Unlock()
	c.h.wg.Add(1)
	go func() {
		defer c.h.wg.Done()
		last := ""
		for c.h.ctx.Err() == nil {
			c.readOnce(path, room, &last)
			select {
			case <-c.h.ctx.Done():
			case <-time.After(20 * time.Millisecond): // retry pacing while the server restarts
			}
		}
	}()
}

func (c *client) readOnce(path, room string, last *string) {
	base, err := c.h.base(c.h.ctx)
	if err != nil {
		return
	}
	req, err := http.NewRequestWithContext(c.h.ctx, http.MethodGet, base+path, nil)
	if err != nil {
		return
	}
	if *last != "" {
		req.Header.Set("Last-Event-ID", *last)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return
	}
	_ = readStream(resp.Body, func(id string, data []byte) {
		var u wireUpdate
		if json.Unmarshal(data, &u) == nil {
			c.apply(room, u)
			*last = id
			c.h.notify()
		}
	})
}

func (c *client) apply(room string, u wireUpdate) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(u.Posts) > 0 && c.posts[room] == nil {
		c.posts[room] = map[string]wirePost{}
	}
	for _, p := range u.Posts {
		c.posts[room][p.ID] = p
	}
	for _, p := range u.Private {
		if c.seen[p.ID] {
			continue
		}
		c.seen[p.ID] = true
		item := bottest.Private{Text: p.Text}
		if p.Form != nil {
			f := &bottest.Form{ID: p.Form.ID, Title: p.Form.Title}
			for _, fl := range p.Form.Fields {
				f.Fields = append(f.Fields, fl.ID)
			}
			item.Form = f
			c.form = openForm{ID: f.ID, Room: room}
		}
		c.private = append(c.private, item)
		if p.File != nil {
			c.files = append(c.files, *p.File)
		}
	}
}

// postList returns a room's posts in order, as the suite sees posts.
func (c *client) postList(room string) []bottest.Post {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []wirePost
	for _, p := range c.posts[room] {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].N < out[j].N })
	posts := make([]bottest.Post, len(out))
	for i, p := range out {
		author := p.Author
		if p.Kind == "bot" {
			author = "bot"
		}
		posts[i] = bottest.Post{ID: p.ID, Author: author, Text: p.Text}
		for _, ctl := range p.Controls {
			bc := bottest.Control{ID: ctl.ID, Label: ctl.Label, Select: ctl.Kind != "button"}
			for _, o := range ctl.Options {
				bc.Options = append(bc.Options, o.Value)
			}
			posts[i].Controls = append(posts[i].Controls, bc)
		}
	}
	return posts
}
