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
