// Package protocol is the registry of a table's protocols: RoundTable's
// own deliberation and the other papers' schedules (the evaluation panel,
// the chatroom and its questionnaire, the dyads of opinion dynamics). Each
// protocol is a package under roundtable/protocol/ that registers itself
// in its init, as database/sql drivers do; a program gets the protocols it
// imports (cmd/roundtable imports them all). Nothing outside a protocol's
// own package asks for it by name: the registry answers what a caller
// needs (a schedule from settings, the model-free agents, the measures and
// the analysis outputs) through the optional interfaces a protocol
// implements.
//
// Adding a protocol is one new package that calls Register, and one blank
// import of it where the program is wired.
package protocol

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Protocol is a registered protocol. Its optional capabilities are the
// other interfaces of this package, found by type assertion.
type Protocol interface {
	// Name is the protocol's name in configs, flags and logs
	// (roundtable.Protocol.Name).
	Name() string
	// Schedule builds a table's schedule from s: nil for RoundTable's own.
	// It checks the settings that are the protocol's own and records them
	// in the schedule's parameters; an error names the setting
	// (Settings.Field).
	Schedule(s Settings) (*roundtable.Protocol, error)
	// Own lists the settings of s that are the protocol's own and set
	// (off their defaults), by name (Settings.Field's names). A setting
	// one protocol owns is refused at a table of a protocol that does not
	// own it too.
	Own(s Settings) []string
}

// Briefer is a protocol that tells model-driven agents how it works: its
// briefing is registered with the domain (roundtable.RegisterBriefing) so
// that every View of its tables carries it.
type Briefer interface {
	Briefing() roundtable.Briefing
}

// registry holds the registered protocols by name.
var registry = struct {
	sync.RWMutex
	m map[string]Protocol
}{m: map[string]Protocol{}}

// Register makes p available by its name. A protocol package calls it in
// its init; registering a name twice panics.
func Register(p Protocol) {
	registry.Lock()
	defer registry.Unlock()
	name := p.Name()
	if _, dup := registry.m[name]; dup {
		panic(fmt.Sprintf("protocol: Register called twice for %q", name))
	}
	registry.m[name] = p
	if b, ok := p.(Briefer); ok {
		roundtable.RegisterBriefing(name, b.Briefing())
	}
}

// Lookup returns the protocol registered as name; "" is RoundTable's.
func Lookup(name string) (Protocol, bool) {
	if name == "" {
		name = roundtable.ProtocolRoundTable
	}
	registry.RLock()
	defer registry.RUnlock()
	p, ok := registry.m[name]
	return p, ok
}

// Of returns the registered protocol of a table's schedule (nil is
// RoundTable's); ok is false for a schedule no protocol registered.
func Of(pr *roundtable.Protocol) (Protocol, bool) {
	if pr == nil {
		return Lookup("")
	}
	return Lookup(pr.Name)
}

// All returns the registered protocols, by name.
func All() []Protocol {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]Protocol, 0, len(registry.m))
	for _, p := range registry.m {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Protocol) int { return strings.Compare(a.Name(), b.Name()) })
	return out
}

// Names returns the registered protocols' names, sorted.
func Names() []string {
	var out []string
	for _, p := range All() {
		out = append(out, p.Name())
	}
	return out
}

// Build is the schedule of the protocol named s.Protocol with settings s:
// nil for RoundTable's. An error names the setting at fault (Settings.Field):
// an unknown protocol, a setting of another protocol, or a bad value.
func Build(s Settings) (*roundtable.Protocol, error) {
	p, ok := Lookup(s.Protocol)
	if !ok {
		return nil, fmt.Errorf("%s: unknown preset %q (want %s)", s.Field("protocol"), s.Protocol, orList(Names()))
	}
	if err := checkOwners(p, s); err != nil {
		return nil, err
	}
	pr, err := p.Schedule(s)
	if err != nil {
		return nil, err
	}
	if pr != nil {
		if err := pr.Validate(); err != nil {
			return nil, fmt.Errorf("%s: %s", s.Field("protocol"), roundtable.ErrorMessage(err))
		}
	}
	return pr, nil
}

// checkOwners refuses a setting that another protocol owns and p does not.
func checkOwners(p Protocol, s Settings) error {
	mine := p.Own(s)
	for _, q := range All() {
		for _, name := range q.Own(s) {
			if !slices.Contains(mine, name) {
				return fmt.Errorf("%s: a setting of the %s protocol, not of %q (%s)", s.Field(name), q.Name(), p.Name(), s.Field("protocol"))
			}
		}
	}
	return nil
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
