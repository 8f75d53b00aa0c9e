package bot

import (
	"context"
	"log/slog"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Store is what the bot keeps: table logs, which channel holds which table,
// and small records of what it already posted.
type Store interface {
	roundtable.Store
	Bind(ctx context.Context, key, table string) error
	Lookup(ctx context.Context, key string) (table string, ok bool, err error)
	Unbind(ctx context.Context, key string) error
	PutBlob(ctx context.Context, ns, key string, v []byte) error
	GetBlob(ctx context.Context, ns, key string) (v []byte, ok bool, err error)
	// PutBlobs stores many keys of a namespace in one transaction shared
	// with concurrent writes; Blobs lists a namespace's keys with a prefix.
	PutBlobs(ctx context.Context, ns string, kv map[string][]byte) error
	Blobs(ctx context.Context, ns, prefix string) (map[string][]byte, error)
}

// Clock tells the time and fires deadlines. Tests inject a fake one and
// move it by hand, so no test waits for a real deadline.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc.
type Timer interface {
	// Stop cancels the call; it reports whether it did.
	Stop() bool
}

// SystemClock is the wall clock.
type SystemClock struct{}

// Now implements Clock.
func (SystemClock) Now() time.Time { return time.Now() }

// AfterFunc implements Clock.
func (SystemClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// Deps are the service's collaborators.
type Deps struct {
	Store  Store
	Clock  Clock
	Logger *slog.Logger
	// Task builds a table's task from its spec and number of seats.
	Task func(spec roundtable.TaskSpec, seats int) (roundtable.Task, error)
	// Agent builds the agent that acts for a bot participant.
	Agent func(p roundtable.Participant, task roundtable.Task) (roundtable.Agent, error)
	// Audit measures the messages of audited tables in the background.
	Audit Auditing
	// Owners, when set, says which tables this process serves among
	// several that share the store (owners.go); nil serves every table.
	Owners Owners
	// Seatable, when set, reports why bot participant p cannot sit at a
	// table configured as c (a trader at a text table, a protocol's
	// agent at another protocol's table); a start naming it is refused.
	Seatable func(p roundtable.Participant, c roundtable.Config) error
	// Studies, when set, opens the studies the server runs live
	// (/roundtable study start).
	Studies Studies
}

// Policy says who may start and stop tables. A user qualifies when any
// clause matches; an empty policy lets anyone.
type Policy struct {
	Roles   []string // platform role IDs or names
	Manager bool     // users who may manage the channel
	Users   []string // platform user IDs
}

// Empty reports whether the policy has no clause.
func (p Policy) Empty() bool { return len(p.Roles) == 0 && !p.Manager && len(p.Users) == 0 }

// Allows reports whether u may start tables (and stop any table).
func (p Policy) Allows(u User) bool {
	if p.Empty() {
		return true
	}
	if p.Manager && u.Manager {
		return true
	}
	for _, id := range p.Users {
		if id == u.ID {
			return true
		}
	}
	for _, want := range p.Roles {
		for _, r := range u.Roles {
			if r == want {
				return true
			}
		}
	}
	return false
}

// Preset is a table defined in configuration, started by name.
type Preset struct {
	Name   string
	Config roundtable.Config // task, rule, rounds, durations, mode, early stop
	Agents []string          // names of the bot agents that sit at it
	// Options are start options it sets (start, seats, start_at, people,
	// facilitator_votes, items: waiting.go), under the command's own.
	Options map[string]string
}

// Config is the service's configuration.
type Config struct {
	// Defaults apply to tables started without a preset.
	Defaults roundtable.Config
	// Agents are the bot agents people can seat, by name.
	Agents map[string]roundtable.Participant
	// DefaultAgents sit at a table when the start command names none.
	DefaultAgents []string
	// Options are the start options of every table (waiting.go), under a
	// preset's and the command's own.
	Options map[string]string
	Presets map[string]Preset
	// Policy says who may start and stop tables; Policies overrides it
	// per platform name.
	Policy   Policy
	Policies map[string]Policy
	// AgentTimeout bounds an agent's answer in phases without a deadline.
	AgentTimeout time.Duration
	// RetryMin and RetryMax bound the backoff between attempts to deliver
	// a post (defaults DefaultRetryMin and DefaultRetryMax): it starts at
	// RetryMin and doubles up to RetryMax.
	RetryMin, RetryMax time.Duration
	// ResumeWorkers is how many tables Run resumes at once; zero means
	// four per CPU.
	ResumeWorkers int
}

// policy returns the start/stop policy of a platform.
func (c Config) policy(platform string) Policy {
	if p, ok := c.Policies[platform]; ok {
		return p
	}
	return c.Policy
}
