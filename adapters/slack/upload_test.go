package slack_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/slack"
	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestExportGoesToTheDM runs /roundtable export through the real bot
// service over Socket Mode: the file reaches the asker alone, in their
// direct message, pseudonymised unless the table's starter asks to keep
// the names, which nobody else may.
func TestExportGoesToTheDM(t *testing.T) {
	tb := newTable(t)
	fake, ctx := tb.h.Fake, context.Background()
	alice, bob := slackfake.SlackUser(bottest.Alice), slackfake.SlackUser(bottest.Bob)
	opts := map[string]string{"topic": "Export me", "rounds": "1", "agents": "none"}
	tb.must("start", tb.h.Command(ctx, bottest.Alice, slackfake.GeneralID, "start", opts))
	waitUntil(t, fake, "the table's thread", func() bool { return len(tb.h.Threads(slackfake.GeneralID)) > 0 })
	tb.thread = tb.h.Threads(slackfake.GeneralID)[0]
	tb.click(bottest.Bob, "**Export me", "Join")
	tb.must("begin", tb.h.Command(ctx, bottest.Alice, tb.thread, "begin", nil))
	tb.must("say", tb.h.Say(ctx, bottest.Bob, tb.thread, "hello from the south"))

	tb.must("export", tb.h.Command(ctx, bottest.Alice, tb.thread, "export", nil))
	files := fake.Files(alice.ID)
	if len(files) != 1 {
		t.Fatalf("Alice received %d files, want 1", len(files))
	}
	f, data := files[0], string(files[0].Data)
	if f.Channel != slackfake.DM(alice.ID) || !strings.HasSuffix(f.Name, ".jsonl") || !strings.Contains(f.Comment, "pseudonymised") {
		t.Errorf("file %s in %s with comment %q", f.Name, f.Channel, f.Comment)
	}
	if !strings.Contains(data, "table_created") || !strings.Contains(data, "human-1") ||
		!strings.Contains(data, "human-2") || !strings.Contains(data, `"type":"withheld","actor":"human-`) { // pseudonyms follow a keyed order
		t.Errorf("the export lacks its events or pseudonyms:\n%s", data)
	}
	if strings.Contains(data, "south") {
		t.Errorf("the export during the open message phase shows Bob's sealed message:\n%s", data)
	}
	for _, real := range []string{alice.ID, bob.ID, "Alice", "Bob"} {
		if strings.Contains(data, real) {
			t.Errorf("the pseudonymised export names %q:\n%s", real, data)
		}
	}
	if dm := fake.Messages(slackfake.DM(alice.ID)); len(dm) != 1 || len(dm[0].Files) != 1 || dm[0].Text != f.Comment {
		t.Errorf("Alice's DM shows %+v", dm)
	}
	private := tb.h.Private(bottest.Alice)
	if !shown(private, "file "+f.Name) || !shown(private, "Sent you the export in a direct message.") {
		t.Errorf("Alice is shown %+v", private)
	}
	if eph := fake.Ephemerals(alice.ID); eph[len(eph)-1].Channel != slackfake.GeneralID {
		t.Errorf("the note went to %s, want where Alice typed the command", eph[len(eph)-1].Channel)
	}

	tb.must("export with names", tb.h.Command(ctx, bottest.Alice, tb.thread, "export", map[string]string{"names": "keep"}))
	if files = fake.Files(alice.ID); len(files) != 2 || !strings.Contains(string(files[1].Data), alice.ID) ||
		!strings.Contains(string(files[1].Data), "Bob") {
		t.Errorf("the export with names: %d files, last %q", len(files), files[len(files)-1].Data)
	}

	tb.must("Bob's export with names", tb.h.Command(ctx, bottest.Bob, tb.thread, "export", map[string]string{"names": "keep"}))
	if n := len(fake.Files(bob.ID)); n != 0 {
		t.Errorf("Bob received %d files with names", n)
	}
	if !shown(tb.h.Private(bottest.Bob), "only whoever started this table") {
		t.Errorf("Bob is not told why: %+v", tb.h.Private(bottest.Bob))
	}
	if n := len(fake.Files(alice.ID)); n != 2 {
		t.Errorf("Alice has %d files after Bob's refused export, want 2", n)
	}
}

// TestUploadWaitsOutRateLimits meets a 429 at each step of the upload:
// each is waited out for its Retry-After and only that step is retried;
// a second upload to the same DM is paced like posts in a channel.
func TestUploadWaitsOutRateLimits(t *testing.T) {
	fake := newFake(t)
	fake.AddUser(alice)
	var w waits
	cfg := config(fake)
	cfg.PostInterval, cfg.Wait = 0, w.wait // the default interval (1s), waited out by w
	p := slack.New(cfg, newLogSink(t).logger())
	ctx := context.Background()
	fake.RateLimit("files.getUploadURLExternal", 1, 2)
	fake.RateLimit(slackfake.UploadMethod, 1, 1)
	fake.RateLimit("files.completeUploadExternal", 1, 3)
	ev := &bot.Event{Platform: "slack", Kind: bot.KindCommand, User: bot.User{ID: alice.ID}, Channel: slackfake.GeneralID}
	if err := p.Upload(ctx, ev, "t1.csv", []byte("table,seq\nt1,1\n"), "Event log of **t1**"); err != nil {
		t.Fatal(err)
	}
	for method, want := range map[string]int{"conversations.open": 1, "files.getUploadURLExternal": 2,
		slackfake.UploadMethod: 2, "files.completeUploadExternal": 2} {
		if got := fake.Calls(method); got != want {
			t.Errorf("%d calls of %s, want %d", got, method, want)
		}
	}
	got := w.list()
	if want := []time.Duration{2 * time.Second, time.Second, 3 * time.Second}; len(got) != 3 ||
		got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("waits %v, want the Retry-Afters %v", got, want)
	}
	files := fake.Files(alice.ID)
	if len(files) != 1 || string(files[0].Data) != "table,seq\nt1,1\n" || files[0].Comment != "Event log of *t1*" ||
		files[0].Title != "t1.csv" {
		t.Fatalf("files %+v", files)
	}
	if eph := fake.Ephemerals(alice.ID); len(eph) != 1 || eph[0].Text != "Sent you the export in a direct message." {
		t.Errorf("ephemerals %+v", eph)
	}

	if err := p.Upload(ctx, ev, "t1.jsonl", []byte("{}\n"), "again"); err != nil {
		t.Fatal(err)
	}
	if got = w.list(); len(got) != 4 || got[3] <= 0 || got[3] > time.Second {
		t.Errorf("waits %v: want the second share in the DM paced within (0, 1s]", got)
	}
	if err := p.Upload(ctx, ev, "empty.csv", nil, "nothing"); err == nil {
		t.Errorf("an empty file was uploaded")
	}
}
