package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"
)

// benchStudy seats 500 people at 100 tables of 5 (and a bot each): two
// conditions.
const benchStudy = `name = "lecture"
seed = 9
[defaults]
task = "text"
question = "Which trip do we take in spring?"
rounds = 1
agent = "llm"
seats = 6
humans = 5
[[condition]]
name = "plurality"
rule = "plurality"
[[condition]]
name = "borda"
rule = "borda"
`

// BenchmarkStudyJoin500 measures join to seated: 500 people post the
// cohort link's form; each answer comes once the person's seat is
// recorded, their table opened (for the first at it), the person seated
// there, and, for the one who fills a wave, its tables started. "paced"
// has them arrive one every 20 ms (500 in 10 s, six times the rate of
// 500 in a minute); "burst" sends them 50 at a time, as fast as the
// server answers. Each reports the join latency's p50 and p99 in
// milliseconds.
func BenchmarkStudyJoin500(b *testing.B) {
	b.Run("paced", func(b *testing.B) { benchJoins(b, 20*time.Millisecond, 500) })
	b.Run("burst", func(b *testing.B) { benchJoins(b, 0, 50) })
}

// benchJoins seats 500 people, one every gap (or at once), atOnce of
// them at most in flight.
func benchJoins(b *testing.B, gap time.Duration, atOnce int) {
	const people = 500
	var all []time.Duration
	for range b.N {
		b.StopTimer()
		e := newStudyEnv(b, benchStudy)
		_, code := e.p.CohortURL()
		clients := make([]*http.Client, people)
		for i := range clients {
			clients[i] = &http.Client{Jar: newJar(), CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		}
		lat := make([]time.Duration, people)
		errs := make([]error, people)
		sem := make(chan struct{}, atOnce)
		var wg sync.WaitGroup
		b.StartTimer()
		for i := range people {
			if gap > 0 && i > 0 {
				time.Sleep(gap) // the next person arrives
			}
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				start := time.Now()
				resp, err := clients[i].PostForm(e.base+"/c/"+code, url.Values{"name": {fmt.Sprintf("Student %d", i+1)}})
				lat[i] = time.Since(start)
				if err != nil {
					errs[i] = err
					return
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusSeeOther {
					errs[i] = fmt.Errorf("person %d: %d", i+1, resp.StatusCode)
				}
			}()
		}
		wg.Wait()
		b.StopTimer()
		for _, err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
		all = append(all, lat...)

	}
	slices.Sort(all)
	pct := func(p float64) float64 { return float64(all[int(p*float64(len(all)-1))]) / float64(time.Millisecond) }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(0, "ns/op")
}
