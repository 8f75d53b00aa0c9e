package bottest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// Outager is implemented by harnesses whose platform can be made to fail
// for a while: while down, the platform refuses the bot's posts and edits
// (5xx) or drops their connections.
type Outager interface {
	SetOutage(down bool)
	// Failures returns how many of the bot's requests failed in outages.
	Failures() int
}

// ErrOutage is what the fake answers posts and edits during an outage.
var ErrOutage = errors.New("fake: 503 service unavailable")

// outage is the fake's failure mode; the fake's mu guards it.
type outage struct {
	notify   func()
	down     bool
	lost     bool // the platform takes the post but the answer is lost
	refusal  bool // the platform refuses for good (bot.Refusal)
	failures int
}

func (o *outage) refuse() error {
	if o.down && o.refusal {
		defer o.notify()
		o.failures++
		return &bot.Refusal{Reason: "I may not post here: give me Send Messages", Err: ErrOutage}
	}
	if o.down && !o.lost {
		defer o.notify()
		o.failures++
		return ErrOutage
	}
	return nil
}

func (o *outage) drop() error {
	if o.down && o.lost {
		defer o.notify()
		o.failures++
		return fmt.Errorf("fake: connection reset after the request was sent: %w", ErrOutage)
	}
	return nil
}

// SetOutage starts (down) or ends an outage: while it lasts, posts and
// edits fail. It implements Outager.
func (f *Fake) SetOutage(down bool) {
	f.mu.Lock()
	f.outage.down = down
	f.mu.Unlock()
}

// LoseAnswers makes the fake, during an outage, keep posts and edits but
// answer with an error, as when a connection drops after the request was
// sent.
func (f *Fake) LoseAnswers(lost bool) {
	f.mu.Lock()
	f.outage.lost = lost
	f.mu.Unlock()
}

// RefuseForGood makes the outage refuse posts and edits with a
// bot.Refusal, which retrying cannot fix.
func (f *Fake) RefuseForGood(refuse bool) {
	f.mu.Lock()
	f.outage.refusal = refuse
	f.mu.Unlock()
}

// Failures returns how many posts and edits failed in outages.
func (f *Fake) Failures() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.outage.failures
}

// ImpliedPosts lists, by key and in order, the posts a table's log implies
// the bot shows in its channel: the intro, each phase's opening, the
// messages a sealed message phase reveals, each round's result and the
// end. Posted keys are "<table>/<key>" (bot.Message.Key).
func ImpliedPosts(evs []roundtable.Event) ([]string, error) {
	s := &roundtable.State{}
	var keys []string
	for _, e := range evs {
		if err := s.Apply(e); err != nil {
			return nil, err
		}
		switch d := e.Data.(type) {
		case roundtable.TableCreated:
			keys = append(keys, "intro")
		case roundtable.TableStarted:
			keys = append(keys, "started")
		case roundtable.PhaseOpened:
			keys = append(keys, fmt.Sprintf("r%d/%s/open", d.Round, d.Phase))
		case roundtable.MessagePosted:
			if s.Config.Mode == roundtable.Live && !strings.HasPrefix(e.Key, "msg:") {
				keys = append(keys, fmt.Sprintf("r%d/msg/%d", d.Round, e.Seq))
			}
		case roundtable.PhaseClosed:
			if d.Phase == roundtable.PhaseMessage && s.Config.Mode == roundtable.Sealed {
				for _, m := range s.Rounds[d.Round-1].Messages {
					keys = append(keys, fmt.Sprintf("r%d/msg/%d", d.Round, m.Seq))
				}
			}
		case roundtable.DecisionMade:
			keys = append(keys, fmt.Sprintf("r%d/result", d.Round))
		case roundtable.TableEnded:
			keys = append(keys, "end")
		}
	}
	return keys, nil
}
