package slack_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/slack"
	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
)

// eventsEndpoint serves the HTTP Events API of an adapter in HTTP mode
// whose Web API calls go to a fake Slack.
func eventsEndpoint(t *testing.T) (*httptest.Server, recorder) {
	t.Helper()
	return eventsEndpointOf(t, newFake(t))
}

// eventsEndpointOf is eventsEndpoint against a given fake.
func eventsEndpointOf(t *testing.T, fake *slackfake.Server) (*httptest.Server, recorder) {
	t.Helper()
	fake.AddUser(alice)
	cfg := config(fake)
	cfg.Mode = slack.ModeHTTP
	p := slack.New(cfg, newLogSink(t).logger())
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	rec := make(recorder, 10)
	srv := httptest.NewServer(p.Handler(ctx, rec.handle))
	t.Cleanup(srv.Close)
	return srv, rec
}

// signed is a request from Slack: body signed with secret at ts.
func signed(t *testing.T, srv *httptest.Server, contentType, body, secret string, ts time.Time) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/slack/events", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	stamp := strconv.FormatInt(ts.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte("v0:" + stamp + ":" + body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-Slack-Request-Timestamp", stamp)
	req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = res.Body.Close() })
	return res
}

const formType = "application/x-www-form-urlencoded"

func commandForm(text string) string {
	return url.Values{"command": {"/roundtable"}, "text": {text}, "user_id": {alice.ID}, "user_name": {"alice"},
		"channel_id": {slackfake.GeneralID}, "trigger_id": {"123.456.abc"}, "team_id": {slackfake.TeamID}}.Encode()
}

func TestHTTPURLVerification(t *testing.T) {
	srv, _ := eventsEndpoint(t)
	res := signed(t, srv, "application/json", `{"token":"x","challenge":"c-42","type":"url_verification"}`, signingSecret, time.Now())
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || string(body) != "c-42" {
		t.Errorf("status %d body %q", res.StatusCode, body)
	}
}

func TestHTTPSignedCommand(t *testing.T) {
	srv, rec := eventsEndpoint(t)
	res := signed(t, srv, formType, commandForm(`start topic:"Lunch?" rounds:2`), signingSecret, time.Now())
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	ev := rec.next(t, "the command", func(*bot.Event) bool { return true })
	if ev.Kind != bot.KindCommand || ev.Command != "start" || ev.Options["topic"] != "Lunch?" || ev.Options["rounds"] != "2" ||
		ev.ID != "cmd:123.456.abc" || !ev.User.Manager || ev.User.Name != "Alice" {
		t.Errorf("event %+v", ev)
	}
}

func TestHTTPRefusesBadSignatures(t *testing.T) {
	srv, rec := eventsEndpoint(t)
	for name, res := range map[string]*http.Response{
		"wrong secret": signed(t, srv, formType, commandForm("help"), "not-the-secret", time.Now()),
		"stale":        signed(t, srv, formType, commandForm("help"), signingSecret, time.Now().Add(-10*time.Minute)),
	} {
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: status %d, want 401", name, res.StatusCode)
		}
	}
	res, err := http.Post(srv.URL, formType, strings.NewReader(commandForm("help")))
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("unsigned: status %d, want 401", res.StatusCode)
	}
	select {
	case ev := <-rec:
		t.Errorf("a refused request was handled: %+v", ev)
	default:
	}
}

func TestHTTPInteractionAndEvent(t *testing.T) {
	srv, rec := eventsEndpoint(t)
	action := `{"type":"block_actions","trigger_id":"9.9.x","user":{"id":"U1001","name":"alice"},
		"container":{"type":"message","message_ts":"1700000000.000300","channel_id":"C0GENERAL","thread_ts":"1700000000.000100"},
		"actions":[{"type":"static_select","action_id":"rt:t1:1:choose","block_id":"actions-0","selected_option":{"value":"B"}}]}`
	signed(t, srv, formType, url.Values{"payload": {action}}.Encode(), signingSecret, time.Now())
	ev := rec.next(t, "the click", func(*bot.Event) bool { return true })
	if ev.Kind != bot.KindAction || ev.Action != "rt:t1:1:choose" || len(ev.Values) != 1 || ev.Values[0] != "B" ||
		ev.Channel != "C0GENERAL/1700000000.000100" {
		t.Errorf("event %+v", ev)
	}
	message := `{"type":"event_callback","event_id":"Ev1","team_id":"T0FAKETEAM","event":{"type":"message","user":"U1001",
		"text":"north is sunny","ts":"1700000000.000500","thread_ts":"1700000000.000100","channel":"C0GENERAL","channel_type":"channel"}}`
	signed(t, srv, "application/json", message, signingSecret, time.Now())
	ev = rec.next(t, "the message", func(*bot.Event) bool { return true })
	if ev.Kind != bot.KindMessage || ev.Text != "north is sunny" || ev.ID != "msg:C0GENERAL/1700000000.000500" {
		t.Errorf("event %+v", ev)
	}
}

// freeAddr returns a local address no one listens on.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func TestHTTPModeRunsAndStops(t *testing.T) {
	fake := newFake(t)
	cfg := config(fake)
	cfg.Mode, cfg.HTTPAddr = slack.ModeHTTP, freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- slack.New(cfg, newLogSink(t).logger()).Run(ctx, func(context.Context, *bot.Event) {}) }()
	waitUntil(t, fake, "auth.test", func() bool { return fake.Calls("auth.test") == 1 })
	for deadline := time.Now().Add(5 * time.Second); ; { // the listener comes up right after auth.test
		res, err := http.Post("http://"+cfg.HTTPAddr, formType, strings.NewReader(commandForm("help")))
		if err == nil {
			_ = res.Body.Close()
			if res.StatusCode != http.StatusUnauthorized {
				t.Errorf("unsigned request: status %d", res.StatusCode)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the endpoint does not answer: %v", err)
		}
		runtime.Gosched()
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
	cfg.SigningSecret = ""
	if err := slack.New(cfg, nil).Run(context.Background(), nil); err == nil {
		t.Errorf("HTTP mode ran without a signing secret")
	}
}

// submission is a view_submission of pointsForm with A's points, from the
// modal opened in #general.
func submission(points string) string {
	payload := `{"type":"view_submission","trigger_id":"7.7.x","user":{"id":"U1001","name":"alice"},
		"view":{"id":"V1","type":"modal","callback_id":"rt:t1:1:ballot","private_metadata":"{\"c\":\"C0GENERAL\"}",
		"state":{"values":{"A":{"A":{"type":"plain_text_input","value":"` + points + `"}}}}}}`
	return url.Values{"payload": {payload}}.Encode()
}

// TestHTTPSubmissionAnswer has the response to a view_submission carry
// the bot's answer: the errors as JSON for a refusal, nothing (the modal
// closes) for an accepted submission, which is then confirmed.
func TestHTTPSubmissionAnswer(t *testing.T) {
	fake := newFake(t)
	fake.AddUser(alice)
	cfg := config(fake)
	cfg.Mode = slack.ModeHTTP
	p := slack.New(cfg, newLogSink(t).logger())
	const refused = "ballot rejected: points total 5 exceeds the budget of 2"
	replied := make(chan error, 2)
	h := func(ctx context.Context, ev *bot.Event) {
		r := bot.Reply{Text: "Your ballot is recorded.", Ephemeral: true}
		if ev.Fields["A"] == "5" {
			r = bot.Reply{Text: refused, Ephemeral: true, Fields: map[string]string{"A": refused}}
		}
		replied <- p.Reply(ctx, ev, r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv := httptest.NewServer(p.Handler(ctx, h))
	t.Cleanup(srv.Close)

	res := signed(t, srv, formType, submission("5"), signingSecret, time.Now())
	body, _ := io.ReadAll(res.Body)
	want := `{"response_action":"errors","errors":{"A":"` + refused + `"}}`
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/json" || string(body) != want {
		t.Errorf("refusal: status %d type %q body %s, want %s", res.StatusCode, res.Header.Get("Content-Type"), body, want)
	}
	res = signed(t, srv, formType, submission("2"), signingSecret, time.Now())
	body, _ = io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || len(body) != 0 {
		t.Errorf("acceptance: status %d body %q, want an empty 200", res.StatusCode, body)
	}
	for range 2 {
		select {
		case err := <-replied:
			if err != nil {
				t.Errorf("reply: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("timed out waiting for the replies")
		}
	}
	if eph := fake.Ephemerals(alice.ID); len(eph) != 1 || eph[0].Text != "Your ballot is recorded." {
		t.Errorf("ephemerals %+v, want only the confirmation", eph)
	}
}
