// Package bottest is the conformance suite every chat adapter passes, in
// the manner of testing/slogtest: an adapter's test implements Harness over
// its platform's real wire protocol (a local fake server) and calls Run.
// It also has Fake, an in-memory platform that is the reference Harness,
// and Clock, a fake clock whose timers fire when it is advanced.
package bottest

import (
	"context"

	"github.com/roundtable-ai/roundtable/bot"
)

// User is a person on the platform under test.
type User struct {
	ID      string
	Name    string
	Manager bool // may manage the channel (starts and stops tables)
}

// Post is a message as users see it in a channel.
type Post struct {
	ID       string
	Author   string // "bot" for the bot itself, else the persona's name
	Text     string
	Controls []Control
	Key      string // bot.Message.Key, where the platform keeps it
}

// Control is a button or select as users see it.
type Control struct {
	ID      string
	Label   string
	Select  bool
	Options []string // option values
}

// Private is what one user alone was shown: an ephemeral reply or a form.
type Private struct {
	Text string
	Form *Form
}

// Form is an opened form as its user sees it.
type Form struct {
	ID     string
	Title  string
	Fields []string // field IDs
}

// Harness drives one platform from the users' side.
//
// Every method acts through the platform's own protocol where it has one
// (gateway dispatches, Socket Mode envelopes, HTTP requests), so the suite
// tests the adapter's normalisation and rendering, not a shortcut.
// Implementations must be safe for concurrent use.
type Harness interface {
	// Platform returns the adapter under test. After Restart it returns
	// a new adapter connected to the same platform.
	Platform() bot.Platform
	// Restart replaces the adapter by a new one (the bot process restarts;
	// the platform and what it shows stay).
	Restart()
	// Channel is a channel where tables may be started.
	Channel() string
	// Command, Say, Click and Submit return once the platform has taken the
	// action and, for Command, Click and Submit, once the bot has answered
	// it (as a user's client waits for the answer to an interaction).
	//
	// Command runs a /roundtable subcommand as u in channel.
	Command(ctx context.Context, u User, channel, name string, opts map[string]string) error
	// Say posts a message as u in channel.
	Say(ctx context.Context, u User, channel, text string) error
	// Click presses a control of a posted message as u; values are a
	// select's chosen option values.
	Click(ctx context.Context, u User, channel, messageID, controlID string, values ...string) error
	// Submit submits the form most recently opened for u.
	Submit(ctx context.Context, u User, fields map[string]string) error
	// Posts returns channel's messages in order, edits applied.
	Posts(channel string) []Post
	// Private returns what u alone was shown, in order.
	Private(u User) []Private
	// Threads returns the threads opened under channel, oldest first.
	Threads(channel string) []string
	// Updates receives a value whenever something new may be visible.
	Updates() <-chan struct{}
}
