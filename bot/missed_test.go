package bot_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// lateMsg is what the service logs when an agent answers after its phase
// closed.
const lateMsg = "agent answered after its phase closed; the answer is not recorded"

// logWatch is a slog handler that hands the records with one message to a
// channel, so a test waits for the service to have done something.
type logWatch struct {
	msg string
	got chan slog.Record
}

func (w logWatch) Enabled(context.Context, slog.Level) bool { return true }
func (w logWatch) WithAttrs([]slog.Attr) slog.Handler       { return w }
func (w logWatch) WithGroup(string) slog.Handler            { return w }
func (w logWatch) Handle(_ context.Context, r slog.Record) error {
	if r.Message == w.msg {
		select {
		case w.got <- r:
		default: // the test waits for the first only
		}
	}
	return nil
}

// slowAgent answers only once released, whatever its context says: its
// answer comes after the phase closed.
type slowAgent struct {
	asked, release chan struct{}
}

func (a slowAgent) Act(_ context.Context, v roundtable.View) (roundtable.Action, error) {
	if v.Round == 1 && v.Phase == roundtable.PhaseMessage {
		a.asked <- struct{}{}
		<-a.release
		return roundtable.Say{Text: "Ada, too late: let us keep it simple."}, nil
	}
	return bottest.Scribe{}.Act(context.Background(), v)
}

// llmAgent is a language-model agent over the real go-openai client and
// the fake OpenAI server, which holds Ada's first message until released
// (or the request is cancelled).
func llmAgent(t *testing.T, asked, release chan struct{}) roundtable.Agent {
	h := func(ctx context.Context, r *openaitest.Request) openaitest.Reply {
		if openaitest.All(openaitest.Schema("message"), openaitest.Contains("Round 1 of"))(r) {
			asked <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
			}
		}
		return openaitest.Responder{}.Handle(ctx, r)
	}
	srv := openaitest.NewServer(h)
	t.Cleanup(srv.Close)
	client := openai.New(openai.Config{Name: "fake", BaseURL: srv.URL(), Model: "fake-model", APIKey: "sk-test-0123456789abcdef"})
	return agent.New(client, roundtable.TextTask{Topic: "Lunch?"}, agent.Options{})
}

// TestLateAgentAnswerIsRecordedAsAMissedPhase seats Ada, an agent whose
// first message comes only after its phase closed, beside Alice, who
// writes hers: the close records Ada's timeout in the log, once, before
// the phase_closed event; her late answer is not recorded (and is
// logged); the export says she missed the phase; the table goes on.
// Ada is a language model behind the fake OpenAI server whose request is
// cancelled by the close, or an agent that answers all the same; the
// phase closes at its deadline (a fake clock) or by the organiser.
func TestLateAgentAnswerIsRecordedAsAMissedPhase(t *testing.T) {
	for _, tc := range []struct {
		name, close string
		llm         bool
	}{
		{"LLMDeadline", "deadline", true},
		{"LLMClosedEarly", "organiser", true},
		{"AnswerAfterDeadline", "deadline", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked, release := make(chan struct{}, 1), make(chan struct{})
			var ada roundtable.Agent = slowAgent{asked: asked, release: release}
			if tc.llm {
				ada = llmAgent(t, asked, release)
			}
			late := logWatch{msg: lateMsg, got: make(chan slog.Record, 4)}
			db, clock, f := openDB(t), newClock(), bottest.NewFake()
			cfg := bot.Config{
				Defaults: roundtable.Config{Rule: vote.Plurality, Rounds: 1, Mode: roundtable.Sealed,
					Durations: roundtable.Durations{Message: phase, Proposal: phase, Vote: phase}},
				Agents:        map[string]roundtable.Participant{"Ada": {ID: "agent:ada", Name: "Ada", Kind: roundtable.Bot, Agent: "llm"}},
				DefaultAgents: []string{"Ada"},
			}
			deps := bot.Deps{Store: db, Clock: clock, Logger: slog.New(late),
				Agent: func(roundtable.Participant, roundtable.Task) (roundtable.Agent, error) { return ada, nil },
				Task: func(spec roundtable.TaskSpec, _ int) (roundtable.Task, error) {
					return roundtable.TextTask{Topic: spec.Topic}, nil
				}}
			runService(t, bot.New(cfg, deps, f))
			ctx := context.Background()
			thread := startTable(t, f, map[string]string{"topic": "Lunch?"})
			<-asked // Ada is thinking
			must(t, f.Say(ctx, bottest.Alice, thread, "Alice: pizza, as always."))
			if tc.close == "deadline" {
				clock.Advance(phase)
			} else {
				must(t, f.Command(ctx, bottest.Alice, thread, "close", nil))
			}
			close(release)
			<-late.got // Ada's answer came, and was dropped

			id, _, err := db.Lookup(ctx, "fake:"+thread)
			must(t, err)
			evs, err := db.Load(ctx, id)
			must(t, err)
			checkMissed(t, evs, tc.close)
			must(t, f.Command(ctx, bottest.Alice, thread, "export", map[string]string{"format": "jsonl"}))
			if got := lastPrivate(t, f, bottest.Alice); !strings.Contains(got, `"action_failed"`) || !strings.Contains(got, `"kind":"timeout"`) {
				t.Errorf("the export does not say Ada missed the message phase:\n%s", got)
			}
			for i := 0; !tableEnded(t, db, id); i++ { // the table goes on to its end
				if i > 10 {
					t.Fatal("the table does not end")
				}
				clock.Advance(phase)
			}
		})
	}
}

// checkMissed checks that round 1's message phase records Ada's timeout
// once, before it closes, and no message of hers.
func checkMissed(t *testing.T, evs []roundtable.Event, closedBy string) {
	t.Helper()
	failed, closedAt := -1, -1
	for i, e := range evs {
		switch d := e.Data.(type) {
		case roundtable.ActionFailed:
			if e.Actor != "agent:ada" || d.Round != 1 || d.Phase != roundtable.PhaseMessage {
				continue
			}
			if failed >= 0 {
				t.Errorf("Ada's missed message phase is recorded twice")
			}
			failed = i
			if d.Kind != "timeout" || !strings.Contains(d.Reason, "no answer before the phase") {
				t.Errorf("Ada's failure: kind %q, reason %q; want a timeout that says why", d.Kind, d.Reason)
			}
			if want := map[string]string{"deadline": "deadline", "organiser": "closed early"}[closedBy]; !strings.Contains(d.Reason, want) {
				t.Errorf("Ada's failure reads %q; want it to say the phase was closed by its %s", d.Reason, closedBy)
			}
		case roundtable.MessagePosted:
			if e.Actor == "agent:ada" && d.Round == 1 {
				t.Errorf("Ada's late message was recorded: %+v", d)
			}
		case roundtable.PhaseClosed:
			if d.Round == 1 && d.Phase == roundtable.PhaseMessage {
				closedAt = i
			}
		}
	}
	if failed < 0 || closedAt < 0 || failed > closedAt {
		t.Errorf("Ada's timeout at event %d, the phase's close at %d: want the timeout recorded before the close", failed, closedAt)
	}
}

func tableEnded(t *testing.T, db interface {
	Load(context.Context, string) ([]roundtable.Event, error)
}, id string) bool {
	t.Helper()
	evs, err := db.Load(context.Background(), id)
	must(t, err)
	return evs[len(evs)-1].Type() == "table_ended"
}
