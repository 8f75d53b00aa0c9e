package bot

import (
	"context"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Platform is a chat platform as the bot service sees it.
//
// Implementations must be safe for concurrent use. Channel IDs are the
// platform's own (a thread is a channel). Errors are returned wrapped with
// context; a rate limit is waited out inside the adapter, never returned as
// an error and never dropped.
type Platform interface {
	// Name is the platform's short name ("discord", "slack", "web"); it
	// prefixes channel bindings and user IDs in the store.
	Name() string
	// Run connects and delivers every user event to h, one call per event,
	// until ctx is done or the connection fails for good. It reconnects by
	// itself after transient failures. h may be called concurrently.
	Run(ctx context.Context, h Handler) error
	// Post posts m in channel and returns the posted message's ID. A long
	// text is split at the platform's limits; the ID is the first part's.
	Post(ctx context.Context, channel string, m Message) (string, error)
	// Edit replaces the text and controls of a posted message.
	Edit(ctx context.Context, channel, id string, m Message) error
	// Reply answers the user event ev. An ephemeral reply is seen only by
	// ev.User; adapters without ephemeral messages send it privately. A
	// reply with a Form opens the form (a modal) instead of posting text.
	Reply(ctx context.Context, ev *Event, r Reply) error
	// StartThread opens a thread for a table under channel and returns its
	// channel ID. Adapters without threads return channel itself.
	StartThread(ctx context.Context, channel, title string) (string, error)
}

// Uploader is implemented by platforms that can post a file.
type Uploader interface {
	// Upload posts a file in channel, with a short note, seen by ev.User
	// only when the platform allows it.
	Upload(ctx context.Context, ev *Event, name string, data []byte, note string) error
}

// Forgetter is implemented by platforms that keep something per channel
// (a thread's parent, say). The service calls Forget once a table has
// ended and its last posts are out, so that a long-running process does
// not grow with every table it ever ran; a later event in the channel
// must still work, at the cost of the platform looking it up again.
type Forgetter interface {
	Forget(channel string)
}

// Handler receives user events from a platform.
type Handler func(ctx context.Context, ev *Event)

// Kind is the kind of a user event.
type Kind string

// User event kinds.
const (
	KindCommand Kind = "command" // a command: /roundtable start ...
	KindMessage Kind = "message" // a message in a channel or thread
	KindAction  Kind = "action"  // a button click or a select
	KindSubmit  Kind = "submit"  // a submitted form (modal)
)

// Event is what a user did, normalised by the adapter.
type Event struct {
	Platform string
	Kind     Kind
	// ID is unique per user action on the platform (interaction ID, message
	// ID, envelope ID); a redelivered event keeps its ID, which makes
	// handling it idempotent.
	ID      string
	User    User
	Channel string // where it happened; a thread ID inside a thread
	Parent  string // the channel a thread belongs to, if Channel is a thread
	// Space is the place Channel belongs to when the platform's
	// processes divide places among them (a Discord guild, whose shard
	// carries its events; see Partitioned); empty otherwise.
	Space string
	// Command is the subcommand of a KindCommand event ("start", "join",
	// ...) and Options its named options.
	Command string
	Options map[string]string
	// Text is a KindMessage event's text.
	Text string
	// Action is the control or form ID of a KindAction or KindSubmit
	// event; Values are a select's chosen values; Fields are a form's
	// values by field ID.
	Action string
	Values []string
	Fields map[string]string
	// Native is the adapter's own handle (an interaction, a trigger ID)
	// that Reply needs. The bot never looks inside.
	Native any
}

// User is the person (or bot) behind an event.
type User struct {
	ID    string // the platform's user ID
	Name  string // display name
	Bot   bool   // a bot account: its events are ignored
	Roles []string
	// Manager is true when the platform says the user may manage the
	// channel (Discord's Manage Channels, a Slack workspace admin).
	Manager bool
}

// Message is something the bot posts.
type Message struct {
	// Text uses a small markdown subset every platform renders: **bold**,
	// _italic_, `code`, "- " lists and line breaks. Adapters translate it.
	Text string
	// As makes the message appear under an agent's name and avatar
	// (Discord webhooks, Slack's username override); nil posts as the bot.
	As       *Persona
	Controls []Control
	// Key names the post for platforms that can tell a repeated post
	// (the web channel keeps it with the post; Discord sends a nonce
	// derived from it): posting a key again returns the first post's ID
	// instead of a second post. The bot sets it on every post it delivers,
	// and on an edit to the edited post's key.
	Key string
	// MaybeSent says an earlier attempt to post this message may have
	// reached the platform although its answer never came back (a dropped
	// connection, or a process that stopped before recording it). A
	// platform that cannot refuse a repeated key by itself then looks for
	// the earlier post, by its key, before posting again.
	MaybeSent bool
}

// Persona is the name and look of an agent that speaks.
type Persona struct {
	Name   string
	Avatar string // image URL, optional
}

// ControlKind is the kind of an interactive control.
type ControlKind string

// Control kinds.
const (
	Button ControlKind = "button"
	Select ControlKind = "select" // Max > 1 makes it a multi-select
)

// Control is a button or a select attached to a message.
type Control struct {
	ID      string // returned as Event.Action; at most 100 bytes
	Kind    ControlKind
	Label   string // button text or select placeholder
	Options []Option
	Min     int // selects: fewest values (0 allows clearing)
	Max     int // selects: most values; 0 or 1 is a single select
	Primary bool
}

// Option is a choice of a select.
type Option struct {
	Value string
	Label string
}

// Form is a modal with fields, submitted as a KindSubmit event.
type Form struct {
	ID     string // returned as Event.Action
	Title  string // at most 24 characters (Slack's limit)
	Fields []Field
}

// Field is one input of a form. With Options it is a select (adapters
// whose modals cannot hold selects show a text input and list the options
// in the label).
type Field struct {
	ID          string
	Label       string // at most 45 characters
	Placeholder string
	Value       string // prefilled value
	Long        bool   // a paragraph rather than a line
	Optional    bool
	MaxLen      int
	Options     []Option
}

// Reply answers a user event.
type Reply struct {
	Text      string
	Ephemeral bool
	Form      *Form // open this form instead of posting text
	// Fields, in the answer to a KindSubmit event, are errors by field ID:
	// the submission was refused. Adapters whose forms can show errors keep
	// the form open and show them there (Slack's response_action); the
	// others show Text.
	Fields map[string]string
	// Refused, when set, says the reply explains why the event was not
	// acted on, and how (roundtable.Invalid, Conflict, Internal, ...):
	// adapters that answer requests (the web channel) pick a status by it.
	Refused roundtable.Code
}
