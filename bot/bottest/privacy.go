package bottest

import (
	"context"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// File is a file a user received (an export).
type File struct {
	Name string
	Data []byte
}

// FileReceiver is a Harness whose users can receive files: each harness
// fetches them as its platform's users do (a Discord attachment, a file in
// a Slack direct message, a download link on the web page).
type FileReceiver interface {
	// ReceivedFiles returns the files u received, oldest first.
	ReceivedFiles(u User) []File
}

// TableViewer is a Harness whose users see a table in more ways than its
// thread: the web channel's log download, live feed and dashboard.
type TableViewer interface {
	// TableViews fetches, as u, every view of the table in channel: the
	// whole log under "log download" (query holds its options: format,
	// names), and partial views under names starting "view:".
	TableViews(ctx context.Context, u User, channel string, query map[string]string) (map[string][]byte, error)
}

// StoreSharer is a Harness whose platform reads the bot's store (the web
// channel shows tables from it, as `roundtable serve` runs it with one
// database). The suite hands it the store before the service starts.
type StoreSharer interface {
	ShareStore(db *store.DB)
}

// Markers placed in what must stay sealed until its phase closes.
const (
	markMessage   = "MARK-SEALED-MESSAGE"
	markProposal  = "MARK-SEALED-PROPOSAL"
	markReasoning = "it is short" // Scribe's private reasoning
)

// export runs /roundtable export as u and returns the file u receives.
func (e *env) export(u User, opts map[string]string) string {
	e.t.Helper()
	fr, ok := e.h.(FileReceiver)
	if !ok {
		e.t.Skipf("%T cannot receive files", e.h)
	}
	n := len(fr.ReceivedFiles(u))
	e.command(u, "export", opts)
	var f File
	e.waitFor(u.Name+"'s export", func() bool {
		files := fr.ReceivedFiles(u)
		if len(files) > n {
			f = files[n]
			return true
		}
		return false
	})
	return string(f.Data)
}

// exports returns what u gets of the table now: its /roundtable export
// and, where the platform offers them, its other views.
func (e *env) exports(u User, opts map[string]string) map[string]string {
	e.t.Helper()
	out := map[string]string{"export": e.export(u, opts)}
	if tv, ok := e.h.(TableViewer); ok {
		views, err := tv.TableViews(context.Background(), u, e.thread, opts)
		if err != nil {
			e.t.Fatalf("%s's views of the table: %v", u.Name, err)
		}
		for name, data := range views {
			out[name] = string(data)
		}
	}
	return out
}

// sealed checks what each view shows: each marker present or not. A
// partial view ("view:...") need not show everything; it must only show
// nothing that is sealed.
func (e *env) sealed(when string, views map[string]string, want map[string]bool) {
	e.t.Helper()
	for name, text := range views {
		for mark, shown := range want {
			if shown && strings.HasPrefix(name, "view:") {
				continue
			}
			if strings.Contains(text, mark) != shown {
				e.t.Errorf("%s: the %s shows %q: %v, want %v\n%s", when, name, mark, !shown, shown, text)
			}
		}
	}
}

// testExportKeepsSealed: a participant's export during each open phase
// holds nothing sealed (an open message phase's messages, an open
// proposal phase's proposals and the agents' reasoning, an open vote's
// ballots); after the end it holds everything but others' reasoning,
// which only the starter's export with names has.
func testExportKeepsSealed(t *testing.T, e *env) {
	e.start(map[string]string{"topic": "Secrets", "rounds": "1"})
	e.click(Bob, "**Secrets", "Join")
	e.private(Bob, "You joined")
	e.say(Alice, markMessage)
	e.waitEvents("message_posted", 2) // Alice's and Scribe's
	log := e.exports(Bob, nil)
	e.sealed("message phase", log, map[string]bool{markMessage: false, "Scribe here": false, `"type":"withheld"`: true})

	e.say(Bob, "my sealed word")
	e.post("**Round 1 of 1: proposal")
	e.command(Alice, "propose", map[string]string{"text": markProposal})
	e.waitEvents("proposal_made", 2)
	log = e.exports(Bob, map[string]string{"format": "csv"})
	e.sealed("proposal phase", log, map[string]bool{markMessage: true, markProposal: false, "Scribe's plan": false, markReasoning: false})

	e.command(Bob, "propose", map[string]string{"text": "Bob's idea"})
	e.post("**Round 1 of 1: vote")
	e.command(Alice, "vote", map[string]string{"ballot": "C"})
	e.waitEvents("ballot_cast", 2)
	log = e.exports(Bob, nil)
	e.sealed("vote phase", log, map[string]bool{markProposal: true, `"type":"ballot_cast","actor"`: false, `"choice":"C"`: false, markReasoning: false})

	e.command(Bob, "vote", map[string]string{"ballot": "A"})
	e.post("**The table has ended")
	log = e.exports(Bob, nil)
	e.sealed("after the end (Bob)", log, map[string]bool{`"choice":"C"`: true, markReasoning: false})
	log = e.exports(Alice, nil)
	e.sealed("after the end (Alice, pseudonymised)", log, map[string]bool{markReasoning: false, `"choice":"A"`: true})
	log = e.exports(Alice, map[string]string{"names": "keep"})
	e.sealed("after the end (Alice, who started it, with names)", log, map[string]bool{markReasoning: true, `"choice":"A"`: true})
}

// testExportPseudonymisesEveryone: a table started by someone who does not
// sit at it, and stopped by them, exports with no trace of their platform
// identity (the starter label, the actor of the stop) unless names are
// kept.
func testExportPseudonymisesEveryone(t *testing.T, e *env) {
	before := len(e.h.Threads(e.h.Channel()))
	opts := map[string]string{"topic": "Not mine", "rounds": "1", "join": "no"}
	e.do("start command", func(ctx context.Context) error { return e.h.Command(ctx, Alice, e.h.Channel(), "start", opts) })
	e.waitFor("the table's thread", func() bool { return len(e.h.Threads(e.h.Channel())) > before })
	threads := e.h.Threads(e.h.Channel())
	e.thread = threads[len(threads)-1]
	e.click(Bob, "**Not mine", "Join")
	e.begin()
	e.post("**Round 1 of")
	e.command(Alice, "stop", nil)
	e.post("**The table has ended")
	created, ok := e.events()[0].Data.(roundtable.TableCreated)
	starter := created.Config.Labels["starter"]
	if !ok || starter == "" {
		t.Fatalf("no starter label in %+v", e.events()[0])
	}
	_, user, _ := strings.Cut(starter, ":")
	for _, who := range []User{Alice, Bob} {
		log := e.export(who, nil)
		for _, id := range []string{starter, user} {
			if strings.Contains(log, id) {
				t.Errorf("%s's pseudonymised export names the starter %q:\n%s", who.Name, id, log)
			}
		}
		_, rest, _ := strings.Cut(log, `"starter":"`)
		pseudo, _, _ := strings.Cut(rest, `"`) // pseudonyms follow a keyed order, not appearance
		if !strings.HasPrefix(pseudo, "human-") || !strings.Contains(log, `"type":"table_ended","actor":"`+pseudo+`"`) {
			t.Errorf("%s's export has no pseudonymous starter, or not as the actor of the stop:\n%s", who.Name, log)
		}
	}
	if log := e.export(Alice, map[string]string{"names": "keep"}); !strings.Contains(log, starter) {
		t.Errorf("the export with names lacks the starter %q", starter)
	}
}

var _ FileReceiver = (*Fake)(nil)

// ReceivedFiles implements FileReceiver: the files Upload showed u, read
// back from their private notes ("file NAME (N bytes): NOTE", a newline,
// the content).
func (f *Fake) ReceivedFiles(u User) []File {
	var out []File
	for _, p := range f.Private(u) {
		head, data, ok := strings.Cut(p.Text, "\n")
		name, _, named := strings.Cut(strings.TrimPrefix(head, "file "), " (")
		if ok && named && strings.HasPrefix(head, "file ") {
			out = append(out, File{Name: name, Data: []byte(data)})
		}
	}
	return out
}
