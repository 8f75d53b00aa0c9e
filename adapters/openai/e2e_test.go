package openai_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

const testKey = "sk-test-0123456789abcdef"

var seats = []roundtable.Participant{
	{ID: "alice", Name: "Alice", Kind: roundtable.Bot, Goal: "A cheap solution."},
	{ID: "bob", Name: "Bob", Kind: roundtable.Bot, Goal: "A quick solution."},
	{ID: "carol", Name: "Carol", Kind: roundtable.Bot, Goal: "A fair solution."},
}

// run is the outcome of one table against the fake server.
type run struct {
	state  *roundtable.State
	events []roundtable.Event
	srv    *openaitest.Server
	client *openai.Client
	log    string   // the client's and runner's log
	sleeps []string // waits the client asked for
}

// table runs a 3-round, 3-agent table with the real go-openai client
// against the fake server. Sleeps are recorded and skipped.
// Each edit changes the client's config.
func table(t *testing.T, rule vote.Rule, phaseTimeout time.Duration, opt agent.Options, h openaitest.Handler, edits ...func(*openai.Config)) run {
	t.Helper()
	ctx := context.Background()
	srv := openaitest.NewServer(h)
	t.Cleanup(srv.Close)
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var mu sync.Mutex
	var sleeps []string
	sleep := func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		sleeps = append(sleeps, d.String())
		mu.Unlock()
		return ctx.Err()
	}
	cfg := openai.Config{Name: "fake", BaseURL: srv.URL(), Model: "fake-model", APIKey: testKey, MaxRetries: 3}
	for _, edit := range edits {
		edit(&cfg)
	}
	client := openai.New(cfg, openai.WithSleep(sleep), openai.WithLogger(log))
	task := roundtable.TextTask{Topic: "what should the team build next?"}
	store := roundtabletest.NewMemStore()
	clock := roundtabletest.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	tbl, err := roundtable.Create(ctx, store, clock, task, "t1", roundtable.Config{Rule: rule, Rounds: 3, Seed: 1, Participants: seats})
	if err != nil {
		t.Fatal(err)
	}
	a := agent.New(client, task, opt)
	agents := map[string]roundtable.Agent{}
	for _, p := range seats {
		agents[p.ID] = a
	}
	if _, err := (&roundtable.Runner{Agents: agents, Timeout: phaseTimeout, Logger: log}).Run(ctx, tbl); err != nil {
		t.Fatalf("run: %v", err)
	}
	events, err := store.Load(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return run{state: tbl.Snapshot(), events: events, srv: srv, client: client, log: logs.String(), sleeps: sleeps}
}

// failures lists the recorded failures as "round/participant/phase/kind".
func (r run) failures() []string {
	var out []string
	for _, rr := range r.state.Rounds {
		for _, f := range rr.Failures {
			out = append(out, strings.Join([]string{itoa(rr.Round), f.Participant, f.Phase.String(), f.Kind}, "/"))
		}
	}
	return out
}

func (r run) check(t *testing.T, wantFailures ...string) {
	t.Helper()
	if r.state.Status != roundtable.StatusEnded || len(r.state.Rounds) != 3 {
		t.Fatalf("table status %s after %d rounds, want ended after 3", r.state.Status, len(r.state.Rounds))
	}
	if got := strings.Join(r.failures(), " "); got != strings.Join(wantFailures, " ") {
		t.Errorf("failures %q, want %q", got, strings.Join(wantFailures, " "))
	}
	if r.state.Output == nil {
		t.Error("the table decided nothing")
	}
	for _, e := range r.events {
		if strings.Contains(mustMarshal(t, e), testKey) {
			t.Fatalf("event %d leaks the API key", e.Seq)
		}
	}
	if strings.Contains(r.log, testKey) {
		t.Fatal("the log leaks the API key")
	}
	for _, req := range r.srv.Requests() {
		if got := req.Header.Get("Authorization"); got != "Bearer "+testKey {
			t.Fatalf("request %d has Authorization %q", req.N, got)
		}
	}
}

func TestTableWithScriptedAnswers(t *testing.T) {
	r := table(t, vote.Plurality, 0, agent.Options{}, openaitest.Responder{}.Handle)
	r.check(t)
	if n := r.srv.Count(nil); n != 27 {
		t.Errorf("%d requests, want 27 (3 agents x 3 phases x 3 rounds)", n)
	}
	if got := r.state.Output.Proposal.Text; got != "Alice's proposal" {
		t.Errorf("output %q, want Alice's proposal", got)
	}
	req := r.srv.Requests()[0]
	if req.Format != "json_schema" || !req.Strict || req.Seed == nil {
		t.Errorf("request lacks strict schema or seed: %+v", req)
	}
	if u := r.state.Rounds[0].Usage["bob"]; u.Calls != 3 || u.PromptTokens == 0 {
		t.Errorf("bob's round-1 usage %+v, want 3 calls with tokens", u)
	}
	if u := r.client.Usage(); u.Calls != 27 || u.Failures != 0 {
		t.Errorf("client usage %+v", u)
	}
}

func TestTableRepairsInvalidJSONOnReask(t *testing.T) {
	h := openaitest.Inject(openaitest.Responder{}.Handle, openaitest.Fault{
		Match: openaitest.All(openaitest.Persona("Alice"), openaitest.Schema("proposal"), openaitest.FirstAsk),
		Reply: openaitest.Always(openaitest.InvalidJSON()),
	})
	r := table(t, vote.Plurality, 0, agent.Options{}, h)
	r.check(t)
	if u := r.state.Rounds[0].Usage["alice"]; u.Calls != 4 {
		t.Errorf("alice's round-1 usage %+v, want 4 calls (one re-ask)", u)
	}
	if n := r.srv.Count(openaitest.Repair); n != 1 {
		t.Errorf("%d re-asks, want 1", n)
	}
}

func TestTableRecordsFormatErrorAfterTwoInvalidAnswers(t *testing.T) {
	h := openaitest.Inject(openaitest.Responder{}.Handle, openaitest.Fault{
		Match: openaitest.All(openaitest.Persona("Bob"), openaitest.Schema("proposal"), openaitest.Contains("Round 2 of 3")),
		Times: 2, Reply: openaitest.Always(openaitest.InvalidJSON()),
	})
	r := table(t, vote.Plurality, 0, agent.Options{}, h)
	r.check(t, "2/bob/proposal/format")
	if got := agent.FormatErrors(r.state); len(got) != 1 || got[0] != (agent.FormatErrorCount{Participant: "bob", Phase: roundtable.PhaseProposal, Rule: vote.Plurality, Count: 1}) {
		t.Errorf("format errors %+v", got)
	}
	if !hasEvent(r.events, "action_failed", "invalid proposal answer twice") {
		t.Error("the log has no action_failed event saying why")
	}
}

func TestTableRepairsRuleBreakingBallots(t *testing.T) {
	h := openaitest.Inject(openaitest.Responder{}.Handle,
		openaitest.Fault{Match: openaitest.All(openaitest.Persona("Carol"), openaitest.Schema("vote_rated"), openaitest.FirstAsk),
			Reply: func(r *openaitest.Request) openaitest.Reply {
				scores := map[string]int{}
				for _, id := range r.Candidates() {
					scores[id] = 7
				}
				return openaitest.JSON(map[string]any{"reasoning": "", "abstain": false, "scores": scores})
			}})
	r := table(t, vote.Rated, 0, agent.Options{}, h)
	r.check(t)
	if n := r.srv.Count(openaitest.Repair); n != 1 {
		t.Errorf("%d re-asks, want 1", n)
	}
	reask := r.srv.Requests()
	for _, q := range reask {
		if q.Repair() && !strings.Contains(q.LastUser(), "out of range 1..5") {
			t.Errorf("re-ask does not say what was wrong: %s", q.LastUser())
		}
	}
}

func TestTableRecordsUnknownCandidateTwiceAsFormatError(t *testing.T) {
	h := openaitest.Inject(openaitest.Responder{}.Handle, openaitest.Fault{
		Match: openaitest.All(openaitest.Persona("Alice"), openaitest.Schema("vote_plurality"), openaitest.Contains("Round 1 of 3")),
		Times: 2, Reply: openaitest.Always(openaitest.JSON(map[string]any{"reasoning": "", "abstain": false, "choice": "Z"})),
	})
	r := table(t, vote.Plurality, 0, agent.Options{}, h)
	r.check(t, "1/alice/vote/format")
	if !hasEvent(r.events, "action_failed", `unknown candidate \"Z\"`) {
		t.Error("the log does not name the unknown candidate")
	}
}

func TestTableWaitsForRetryAfterThenSucceeds(t *testing.T) {
	h := openaitest.Inject(openaitest.Responder{}.Handle, openaitest.Fault{
		Match: openaitest.All(openaitest.Persona("Bob"), openaitest.Schema("message")),
		Reply: openaitest.Always(openaitest.RateLimited("2")),
	})
	r := table(t, vote.Plurality, 0, agent.Options{}, h)
	r.check(t)
	if strings.Join(r.sleeps, ",") != "2s" {
		t.Errorf("waits %v, want the 2s of Retry-After", r.sleeps)
	}
	if u := r.state.Rounds[0].Usage["bob"]; u.Retries != 1 {
		t.Errorf("bob's usage %+v, want 1 retry", u)
	}
	if !strings.Contains(r.log, "openai: retrying") || !strings.Contains(r.log, "429 Too Many Requests with Retry-After") {
		t.Errorf("the log does not tell of the retry:\n%s", r.log)
	}
}

func TestTableRetriesServerErrorsThenSucceeds(t *testing.T) {
	h := openaitest.Inject(openaitest.Responder{}.Handle,
		openaitest.Fault{Match: openaitest.Schema("proposal"), Reply: openaitest.Always(openaitest.Status(500, "boom"))},
		openaitest.Fault{Match: openaitest.Schema("proposal"), Reply: openaitest.Always(openaitest.Reply{Status: 502, Body: "<html>bad gateway</html>"})},
	)
	r := table(t, vote.Plurality, 0, agent.Options{}, h)
	r.check(t)
	if len(r.sleeps) != 2 || r.client.Usage().Retries != 2 {
		t.Errorf("waits %v and usage %+v, want 2 retries", r.sleeps, r.client.Usage())
	}
}

func TestTableGoesOnAfterAnAnswerPastThePhaseTimeout(t *testing.T) {
	h := openaitest.Inject(openaitest.Responder{}.Handle, openaitest.Fault{
		Match: openaitest.All(openaitest.Persona("Alice"), openaitest.Schema("message"), openaitest.Contains("Round 2 of 3")),
		Reply: openaitest.Always(openaitest.Hang()),
	})
	r := table(t, vote.Plurality, time.Second, agent.Options{}, h)
	r.check(t, "2/alice/message/timeout")
	if !hasEvent(r.events, "action_failed", "timeout") {
		t.Error("the log has no timeout event")
	}
}

func TestTableWithWindowAndReflectiveMemory(t *testing.T) {
	for _, mem := range []string{agent.MemoryWindow, agent.MemoryReflective} {
		t.Run(mem, func(t *testing.T) {
			r := table(t, vote.Borda, 0, agent.Options{Memory: mem, Window: 1}, openaitest.Responder{}.Handle)
			r.check(t)
			want := 0
			if mem == agent.MemoryReflective {
				want = 6 // rounds 2 and 3, three participants
			}
			if n := r.srv.Count(openaitest.Schema("memory")); n != want {
				t.Errorf("%d memory updates, want %d", n, want)
			}
		})
	}
}

func TestTableWithoutSchemaEnforcement(t *testing.T) {
	r := table(t, vote.Cumulative, 0, agent.Options{StructuredOutput: agent.OutputJSONObject}, openaitest.Responder{}.Handle)
	r.check(t)
	req := r.srv.Requests()[0]
	if req.Format != "json_object" || !strings.Contains(req.LastUser(), `follows the JSON schema "message"`) {
		t.Errorf("json_object request: format %q, prompt %q", req.Format, req.LastUser())
	}
}

func TestResponderPlaysEveryRule(t *testing.T) {
	for _, rule := range vote.Rules() {
		t.Run(string(rule), func(t *testing.T) {
			r := table(t, rule, 0, agent.Options{}, openaitest.Responder{}.Handle)
			r.check(t)
			if n := r.srv.Count(openaitest.Repair); n != 0 {
				t.Errorf("%d re-asks, want none", n)
			}
		})
	}
}
