package bot_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/bot"
)

func TestLanesKeepOrderPerKeyAndDoNotBlockOtherKeys(t *testing.T) {
	var l bot.Lanes
	var mu sync.Mutex
	got := map[string][]int{}
	release := make(chan struct{})
	l.Do("slow", func() { <-release }) // holds its own lane only
	for i := range 50 {
		for _, k := range []string{"a", "b", "slow"} {
			l.Do(k, func() {
				mu.Lock()
				got[k] = append(got[k], i)
				mu.Unlock()
			})
		}
	}
	done := make(chan struct{})
	l.Do("a", func() { close(done) })
	<-done // lane a finished although lane "slow" is still blocked
	close(release)
	l.Wait()
	for _, k := range []string{"a", "b", "slow"} {
		if fmt.Sprint(got[k]) != fmt.Sprint(seq(50)) {
			t.Errorf("lane %s ran %v, want 0..49 in order", k, got[k])
		}
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func TestLanesRefuseWhenAKeysQueueIsFullOnly(t *testing.T) {
	l := bot.Lanes{Depth: 2}
	release, started := make(chan struct{}), make(chan struct{})
	var ran []string
	var mu sync.Mutex
	record := func(s string) func() {
		return func() { mu.Lock(); ran = append(ran, s); mu.Unlock() }
	}
	if !l.Do("k", func() { close(started); <-release }) {
		t.Fatal("the first function was refused")
	}
	<-started // running: it does not count against the depth
	for _, s := range []string{"k1", "k2"} {
		if !l.Do("k", record(s)) {
			t.Errorf("%s refused with room in the lane", s)
		}
	}
	if l.Do("k", record("k3")) {
		t.Error("a function was queued beyond the depth")
	}
	if !l.Do("other", record("o1")) {
		t.Error("another key was refused because k is full")
	}
	refused := make(chan struct{})
	if !l.Refuse("k", func() { close(refused) }) {
		t.Error("the refusal's own lane was full")
	}
	<-refused // answered while k is still blocked
	close(release)
	l.Wait()
	mu.Lock()
	defer mu.Unlock()
	if got := fmt.Sprint(ran); got != "[o1 k1 k2]" && got != "[k1 o1 k2]" && got != "[k1 k2 o1]" {
		t.Errorf("ran %s, want k1 before k2, k3 never, o1 at any time", got)
	}
}
