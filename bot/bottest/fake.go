package bottest

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/roundtable-ai/roundtable/bot"
)

// Fake is an in-memory chat platform: a bot.Platform for the service and
// a Harness for the suite at once. It is the reference the adapters'
// harnesses are measured against.
type Fake struct {
	mu       sync.Mutex
	handler  bot.Handler
	posts    map[string][]Post
	threads  map[string][]string
	private  map[string][]Private
	forms    map[string]openForm
	nextID   int
	updates  chan struct{}
	platform string
	outage   outage
	keys     map[string]string // post key → ID
}

var (
	_ bot.Platform = (*Fake)(nil)
	_ bot.Uploader = (*Fake)(nil)
	_ Harness      = (*Fake)(nil)
)

// NewFake returns an empty fake platform named "fake".
func NewFake() *Fake {
	f := &Fake{posts: map[string][]Post{}, threads: map[string][]string{}, private: map[string][]Private{},
		forms: map[string]openForm{}, updates: make(chan struct{}, 1), platform: "fake"}
	f.outage.notify = f.notify
	return f
}

// NewFakeNamed returns an empty fake platform with another name, to run
// beside a Fake as a second platform.
func NewFakeNamed(name string) *Fake {
	f := NewFake()
	f.platform = name
	return f
}

// openForm is a form opened for a user, and where it was opened: its
// submission arrives there, as on every platform.
type openForm struct {
	form    bot.Form
	channel string
}

// Name implements bot.Platform.
func (f *Fake) Name() string { return f.platform }

// Run implements bot.Platform.
func (f *Fake) Run(ctx context.Context, h bot.Handler) error {
	f.mu.Lock()
	f.handler = h
	f.mu.Unlock()
	f.notify()
	<-ctx.Done()
	f.mu.Lock()
	f.handler = nil
	f.mu.Unlock()
	return nil
}

// Post implements bot.Platform.
func (f *Fake) Post(_ context.Context, channel string, m bot.Message) (string, error) {
	f.mu.Lock()
	if err := f.outage.refuse(); err != nil {
		f.mu.Unlock()
		return "", err
	}
	if id, ok := f.keys[m.Key]; ok && m.Key != "" {
		err := f.outage.drop()
		f.mu.Unlock()
		return id, err
	}
	f.nextID++
	id := fmt.Sprintf("m%d", f.nextID)
	f.posts[channel] = append(f.posts[channel], toPost(id, m))
	if m.Key != "" {
		if f.keys == nil {
			f.keys = map[string]string{}
		}
		f.keys[m.Key] = id
	}
	err := f.outage.drop()
	f.mu.Unlock()
	f.notify()
	if err != nil {
		return "", err
	}
	return id, nil
}

// Edit implements bot.Platform.
func (f *Fake) Edit(_ context.Context, channel, id string, m bot.Message) error {
	f.mu.Lock()
	defer f.notify()
	defer f.mu.Unlock()
	if err := f.outage.refuse(); err != nil {
		return err
	}
	for i, p := range f.posts[channel] {
		if p.ID == id {
			author := p.Author
			f.posts[channel][i] = toPost(id, m)
			f.posts[channel][i].Author = author
			f.posts[channel][i].Key = p.Key
			return f.outage.drop()
		}
	}
	return fmt.Errorf("edit: no message %s in %s", id, channel)
}

// Reply implements bot.Platform.
func (f *Fake) Reply(_ context.Context, ev *bot.Event, r bot.Reply) error {
	f.mu.Lock()
	defer f.notify()
	defer f.mu.Unlock()
	if r.Form != nil {
		form := *r.Form
		f.forms[ev.User.ID] = openForm{form: form, channel: ev.Channel}
		f.private[ev.User.ID] = append(f.private[ev.User.ID], Private{Form: toForm(form)})
		return nil
	}
	if !r.Ephemeral {
		f.nextID++
		f.posts[ev.Channel] = append(f.posts[ev.Channel], Post{ID: fmt.Sprintf("m%d", f.nextID), Author: "bot", Text: r.Text})
		return nil
	}
	f.private[ev.User.ID] = append(f.private[ev.User.ID], Private{Text: r.Text})
	return nil
}

// Upload implements bot.Uploader: the file shows as a private note.
func (f *Fake) Upload(_ context.Context, ev *bot.Event, name string, data []byte, note string) error {
	f.mu.Lock()
	defer f.notify()
	defer f.mu.Unlock()
	f.private[ev.User.ID] = append(f.private[ev.User.ID], Private{Text: fmt.Sprintf("file %s (%d bytes): %s\n%s", name, len(data), note, data)})
	return nil
}

// StartThread implements bot.Platform.
func (f *Fake) StartThread(_ context.Context, channel, title string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	id := fmt.Sprintf("th%d", f.nextID)
	f.threads[channel] = append(f.threads[channel], id)
	return id, nil
}

// Platform implements Harness.
func (f *Fake) Platform() bot.Platform { return f }

// Restart implements Harness; the fake keeps its state.
func (f *Fake) Restart() {}

// Channel implements Harness.
func (f *Fake) Channel() string { return "general" }

func (f *Fake) deliver(ctx context.Context, ev *bot.Event) error {
	f.mu.Lock()
	h := f.handler
	f.nextID++
	ev.ID = fmt.Sprintf("e%d", f.nextID)
	f.mu.Unlock()
	if h == nil {
		return errors.New("fake: the bot is not connected")
	}
	ev.Platform = f.platform
	h(ctx, ev)
	return nil
}

func botUser(u User) bot.User { return bot.User{ID: u.ID, Name: u.Name, Manager: u.Manager} }

// Command implements Harness.
func (f *Fake) Command(ctx context.Context, u User, channel, name string, opts map[string]string) error {
	return f.deliver(ctx, &bot.Event{Kind: bot.KindCommand, User: botUser(u), Channel: channel, Command: name, Options: opts})
}

// Say implements Harness.
func (f *Fake) Say(ctx context.Context, u User, channel, text string) error {
	f.mu.Lock()
	f.nextID++
	f.posts[channel] = append(f.posts[channel], Post{ID: fmt.Sprintf("m%d", f.nextID), Author: u.Name, Text: text})
	f.mu.Unlock()
	return f.deliver(ctx, &bot.Event{Kind: bot.KindMessage, User: botUser(u), Channel: channel, Text: text})
}

// Click implements Harness.
func (f *Fake) Click(ctx context.Context, u User, channel, messageID, controlID string, values ...string) error {
	return f.deliver(ctx, &bot.Event{Kind: bot.KindAction, User: botUser(u), Channel: channel, Action: controlID, Values: values})
}

// Submit implements Harness.
func (f *Fake) Submit(ctx context.Context, u User, fields map[string]string) error {
	f.mu.Lock()
	open, ok := f.forms[u.ID]
	delete(f.forms, u.ID)
	f.mu.Unlock()
	if !ok {
		return fmt.Errorf("fake: no form is open for %s", u.Name)
	}
	return f.deliver(ctx, &bot.Event{Kind: bot.KindSubmit, User: botUser(u), Channel: open.channel, Action: open.form.ID, Fields: fields})
}

// Forge delivers ev as u, in channel, as a modified client could send it
// (a control or form ID the platform never showed); its ID and platform
// are set as for any event.
func (f *Fake) Forge(ctx context.Context, u User, channel string, ev bot.Event) error {
	ev.User, ev.Channel = botUser(u), channel
	return f.deliver(ctx, &ev)
}

// Posts implements Harness.
func (f *Fake) Posts(channel string) []Post {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Post(nil), f.posts[channel]...)
}

// Private implements Harness.
func (f *Fake) Private(u User) []Private {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Private(nil), f.private[u.ID]...)
}

// Threads implements Harness.
func (f *Fake) Threads(channel string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.threads[channel]...)
}

// Updates implements Harness.
func (f *Fake) Updates() <-chan struct{} { return f.updates }

func (f *Fake) notify() {
	select {
	case f.updates <- struct{}{}:
	default:
	}
}

func toPost(id string, m bot.Message) Post {
	p := Post{ID: id, Author: "bot", Text: m.Text, Key: m.Key}
	if m.As != nil {
		p.Author = m.As.Name
	}
	for _, c := range m.Controls {
		p.Controls = append(p.Controls, ToControl(c))
	}
	return p
}

// ToControl is how a harness reports a bot.Control it rendered.
func ToControl(c bot.Control) Control {
	out := Control{ID: c.ID, Label: c.Label, Select: c.Kind == bot.Select}
	for _, o := range c.Options {
		out.Options = append(out.Options, o.Value)
	}
	return out
}

func toForm(f bot.Form) *Form {
	out := &Form{ID: f.ID, Title: f.Title}
	for _, fl := range f.Fields {
		out.Fields = append(out.Fields, fl.ID)
	}
	return out
}
