package slack

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/roundtable-ai/roundtable/bot"
)

// maxBody bounds a request from Slack.
const maxBody = 1 << 20

// runHTTP serves the HTTP Events API on Config.HTTPAddr until ctx is done.
// Slack needs a public HTTPS URL in front of it (a reverse proxy or
// tunnel) for the Event Subscriptions, Slash Commands and Interactivity
// request URLs, which may all be the same.
func (p *Platform) runHTTP(ctx context.Context, h bot.Handler, q *bot.Lanes) error {
	if p.cfg.SigningSecret == "" {
		return errors.New("slack: HTTP mode needs the signing secret")
	}
	ln, err := net.Listen("tcp", p.cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("slack: listen on %s: %w", p.cfg.HTTPAddr, err)
	}
	srv := &http.Server{Handler: p.handler(ctx, inbox{p: p, h: h, q: q}), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	p.log.Info("slack events endpoint listening", "addr", ln.Addr().String())
	select {
	case err := <-done:
		return fmt.Errorf("slack http: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("slack http shutdown: %w", err)
	}
	return nil
}

// Handler returns the HTTP Events API endpoint for h, for callers that
// serve it themselves (Run in HTTP mode serves it on Config.HTTPAddr).
// Events are handled under ctx, after the response; a submitted modal is
// answered once the bot has answered it, within Config.AckDeadline.
func (p *Platform) Handler(ctx context.Context, h bot.Handler) http.Handler {
	return p.handler(ctx, inbox{p: p, h: h, q: &bot.Lanes{Depth: p.depth}})
}

func (p *Platform) handler(ctx context.Context, in inbox) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		body, err := p.verified(r)
		if err != nil {
			p.log.Warn("refused a request not signed by Slack", "remote", r.RemoteAddr, "err", err)
			http.Error(w, "invalid signature", http.StatusUnauthorized)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			p.serveEvent(ctx, in, w, body)
			return
		}
		p.serveForm(ctx, in, w, r)
	})
}

// verified reads the body and checks Slack's signature and timestamp
// (requests older than five minutes are refused, against replays).
func (p *Platform) verified(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	sv, err := slack.NewSecretsVerifier(r.Header, p.cfg.SigningSecret)
	if err != nil {
		return nil, fmt.Errorf("signature headers: %w", err)
	}
	if _, err := sv.Write(body); err != nil {
		return nil, fmt.Errorf("hash body: %w", err)
	}
	if err := sv.Ensure(); err != nil {
		return nil, fmt.Errorf("signature: %w", err)
	}
	return body, nil
}

// serveEvent answers an Events API request: the url_verification
// handshake, or an event callback (Slack retries with the same event, so
// the answer comes at once and the work after).
func (p *Platform) serveEvent(ctx context.Context, in inbox, w http.ResponseWriter, body []byte) {
	e, err := slackevents.ParseEvent(body, slackevents.OptionNoVerifyToken())
	if err != nil {
		http.Error(w, "bad event", http.StatusBadRequest)
		return
	}
	if e.Type == slackevents.URLVerification {
		var ch slackevents.ChallengeResponse
		if err := json.Unmarshal(body, &ch); err != nil {
			http.Error(w, "bad challenge", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(ch.Challenge))
		return
	}
	in.p.busy.add()
	w.WriteHeader(http.StatusOK)
	in.reading(body).eventsAPI(ctx, e)
}

// serveForm answers an interaction (payload=...) or a slash command.
func (p *Platform) serveForm(ctx context.Context, in inbox, w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	switch {
	case r.PostForm.Get("payload") != "":
		cb, err := slack.InteractionCallbackParse(r)
		if err != nil {
			http.Error(w, "bad payload", http.StatusBadRequest)
			return
		}
		in.p.busy.add()
		in = in.reading([]byte(r.PostForm.Get("payload")))
		if cb.Type == slack.InteractionTypeViewSubmission {
			p.serveSubmission(ctx, in, w, r, cb)
			return
		}
		w.WriteHeader(http.StatusOK)
		in.interaction(ctx, cb, nil)
	case r.PostForm.Get("command") != "":
		c, err := slack.SlashCommandParse(r)
		if err != nil {
			http.Error(w, "bad command", http.StatusBadRequest)
			return
		}
		in.p.busy.add()
		w.WriteHeader(http.StatusOK)
		in.readingText(c.Text).command(ctx, c)
	default:
		http.Error(w, "unknown request", http.StatusBadRequest)
	}
}

// serveSubmission answers a submitted modal once the bot has: the
// response is the acknowledgement, with errors that keep the modal open
// or empty (see acker). The acker's deadline bounds the wait.
func (p *Platform) serveSubmission(ctx context.Context, in inbox, w http.ResponseWriter, r *http.Request, cb slack.InteractionCallback) {
	acked := make(chan *slack.ViewSubmissionResponse, 1)
	a := newAcker(p.cfg.AckDeadline, func(resp *slack.ViewSubmissionResponse) { acked <- resp })
	in.interaction(ctx, cb, a)
	select {
	case resp := <-acked:
		writeViewAck(w, resp)
	case <-r.Context().Done(): // Slack gave up; the acker still ends
	}
}
