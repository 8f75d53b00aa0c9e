package discord_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot"
)

// TestWebhookBurstAcrossThreadsMeetsNo429: agents speak in three threads
// of a channel at once, all through the channel's one webhook. Discord
// (and the fake) count one rate-limit bucket per webhook, whatever the
// thread; the client keys its bucket the same way, so it waits for the
// bucket's reset instead of meeting a 429 for each thread.
func TestWebhookBurstAcrossThreadsMeetsNo429(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	p := discord.New(srv.Config(), testLogger(t))
	threads := startThreads(t, srv, p, "table", 3)
	_, err := p.Post(ctx, threads[0], bot.Message{Text: "the webhook is made", As: &bot.Persona{Name: "Scribe"}})
	must(t, err)
	srv.SetLimit(2, 40*time.Millisecond)
	before := srv.Stats()
	var wg sync.WaitGroup
	for ti, th := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 4 {
				if _, err := p.Post(ctx, th, bot.Message{Text: fmt.Sprintf("%d:%d", ti, i), As: &bot.Persona{Name: "Scribe"}}); err != nil {
					t.Errorf("post: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	st := srv.Stats()
	if st.TooMany != before.TooMany || st.Exhausted == before.Exhausted {
		t.Errorf("%d 429s and %d exhausted buckets in the burst: want none (the client waits) and some", st.TooMany-before.TooMany, st.Exhausted-before.Exhausted)
	}
	for _, th := range threads {
		if n := len(srv.Posts(th)); n < 4 {
			t.Errorf("thread %s shows %d posts, want 4", th, n)
		}
	}
}
