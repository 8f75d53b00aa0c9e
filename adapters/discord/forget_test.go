package discord_test

import (
	"context"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot"
)

// TestForgetDropsWhatIsKeptOfAThread checks that the platform keeps a
// table thread's parent until the service forgets the thread, and can
// still post there afterwards.
func TestForgetDropsWhatIsKeptOfAThread(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	p := discord.New(srv.Config(), testLogger(t))
	run(t, srv, p, (&recorder{}).handle)
	thread, err := p.StartThread(ctx, srv.Channel(), "ended table")
	must(t, err)
	if got := discord.KnownParent(p, thread); got != srv.Channel() {
		t.Fatalf("the thread's parent is %q, want %q", got, srv.Channel())
	}
	p.Forget(thread)
	if got := discord.KnownParent(p, thread); got != "" {
		t.Errorf("after Forget the thread's parent is still %q", got)
	}
	_, err = p.Post(ctx, thread, bot.Message{Text: "still reachable"})
	must(t, err)
	if posts := srv.Posts(thread); len(posts) != 1 || posts[0].Text != "still reachable" {
		t.Errorf("posts in the forgotten thread: %+v", posts)
	}
}
