package bot_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// A table is read from the service's memory. A live table past its
// snapshots (its early rounds archived in the file) shows each viewer
// the fold of the log as that viewer may see it, its archived rounds read
// back once per viewer; reading it again, or after it moved on, reads
// nothing from the store. Once it has ended it leaves the service, is
// folded once from the store when read, and is read from the shelf after.
func TestTablesAreReadFromTheServicesMemory(t *testing.T) {
	ctx := context.Background()
	e := newDeliveryEnv(t)
	e.stop()
	reads := &bottest.Reads{DB: e.db}
	e.startOn(reads)
	thread, id := e.pastSnapshot()
	tables := e.svc.Tables("fake")
	alice := tables.Viewer(bottest.Alice.ID)
	viewers := []roundtable.Viewer{{}, alice, {Participant: alice.Participant, Researcher: true, Organiser: true}}
	check := func(when string) {
		t.Helper()
		for _, v := range viewers {
			got, err := tables.State(ctx, thread, v)
			if err != nil {
				t.Fatal(err)
			}
			want, err := roundtable.Replay(roundtable.Visible(e.events(id), v))
			if err != nil {
				t.Fatal(err)
			}
			if g, w := publicPart(t, got), publicPart(t, want); g != w {
				t.Fatalf("%s, %+v sees\n%s\nwant the fold of the visible log\n%s", when, v, g, w)
			}
		}
	}
	n := reads.N()
	check("live")
	if reads.N() == n {
		t.Fatal("the table read no archived rounds back: it has none to test with")
	}
	if st, _ := tables.State(ctx, thread, alice); len(st.Rounds) < 10 || len(st.Rounds[0].Messages)+len(st.Rounds[0].Failures) == 0 {
		t.Fatalf("the table's early rounds are stubs: %+v", st.Rounds)
	}
	n = reads.N()
	check("live, asked again")
	e.clock.Advance(phase) // a phase closes, the next opens
	check("live, a phase later")
	if got := reads.N() - n; got != 0 {
		t.Errorf("reading the live table again, and after it moved on, read the store %d times; want 0", got)
	}

	if err := e.fake.Command(ctx, bottest.Alice, thread, "stop", nil); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the table leaves memory", func() bool { return e.svc.Live() == 0 })
	check("ended")
	n = reads.N()
	check("ended, asked again")
	if got := reads.N() - n; got != 0 {
		t.Errorf("reading the ended table again read the store %d times; want 0 (it is on the shelf)", got)
	}
	if ended, err := tables.Ended(ctx); err != nil || ended[id].IsZero() {
		t.Errorf("Ended = %v, %v; want table %s in it", ended, err, id)
	}
}

// The service says whether a message was recorded, who may manage a
// table, and gives its log as a viewer may see it.
func TestTablesAnswerForTheirChannel(t *testing.T) {
	ctx := context.Background()
	e := newDeliveryEnv(t)
	thread, id := e.startTable(map[string]string{"topic": "Lunch"})
	tables := e.svc.Tables("fake")
	said := &bot.Event{Platform: "fake", Kind: bot.KindMessage, ID: "m-1", User: bot.User{ID: bottest.Alice.ID, Name: "Alice"}, Channel: thread, Text: "Soup"}
	e.svc.Handle(ctx, said)
	if ok, err := tables.Recorded(ctx, said); err != nil || !ok {
		t.Errorf("Recorded(Alice's message) = %v, %v; want true", ok, err)
	}
	again := *said
	again.ID = "m-2" // a second message in the round: refused
	e.svc.Handle(ctx, &again)
	if ok, err := tables.Recorded(ctx, &again); err != nil || ok {
		t.Errorf("Recorded(a refused message) = %v, %v; want false", ok, err)
	}
	for _, c := range []struct {
		u    bot.User
		want bool
	}{{bot.User{ID: bottest.Alice.ID}, true}, {bot.User{ID: bottest.Bob.ID}, false}, {bot.User{ID: bottest.Bob.ID, Manager: true}, true}} {
		if got, err := tables.MayManage(ctx, thread, c.u); err != nil || got != c.want {
			t.Errorf("MayManage(%+v) = %v, %v; want %v", c.u, got, err, c.want)
		}
	}
	// The Scribe writes in this phase too, on its own time: its message
	// is in the log before Bob's view of the log is compared with it.
	e.waitFor("the Scribe's message", func() bool {
		return slices.ContainsFunc(e.events(id), func(ev roundtable.Event) bool {
			return ev.Actor == "agent:scribe" && ev.Data.EventType() == "message_posted"
		})
	})
	bob := tables.Viewer(bottest.Bob.ID)
	evs, err := tables.Log(ctx, thread, bob)
	if err != nil {
		t.Fatal(err)
	}
	// The table goes on while the test reads (the phase closes once both
	// have written): Bob's log is compared with the log as far as it read.
	stored := e.events(id)
	if len(evs) > 0 {
		last := evs[len(evs)-1].Seq
		stored = slices.DeleteFunc(stored, func(ev roundtable.Event) bool { return ev.Seq > last })
	}
	if got, want := encodeEvents(t, evs), encodeEvents(t, roundtable.Visible(stored, bob)); got != want {
		t.Errorf("Bob's log\n%s\nwant\n%s", got, want)
	}
	if table, ok, err := tables.Lookup(ctx, thread); table != id || !ok || err != nil {
		t.Errorf("Lookup = %s, %v, %v; want %s", table, ok, err, id)
	}
	if _, err := tables.State(ctx, "nowhere", bob); roundtable.ErrorCode(err) != roundtable.NotFound {
		t.Errorf("the state of a channel without a table: %v; want NotFound", err)
	}
}

// publicPart encodes what StateFor shares with the fold of the visible
// log: everything but the moderator's bookkeeping and usage.
func publicPart(t *testing.T, s *roundtable.State) string {
	t.Helper()
	c := *s
	c.Keys, c.Past, c.Latest, c.Config.Secret.Key = nil, nil, nil, ""
	c.Rounds = append([]roundtable.RoundRecord(nil), s.Rounds...)
	for i := range c.Rounds {
		c.Rounds[i].Usage = nil
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func encodeEvents(t *testing.T, evs []roundtable.Event) string {
	t.Helper()
	b, err := json.Marshal(evs)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
