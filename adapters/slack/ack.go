package slack

import (
	"encoding/json"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/slack-go/slack"
)

// Acknowledging a submitted modal. Slack closes a modal when the app
// acknowledges its view_submission plainly, and keeps it open showing
// errors under its inputs when the acknowledgement carries
// {"response_action":"errors","errors":{"<block_id>":"<message>"}}. So a
// view_submission, unlike every other payload, is acknowledged only once
// the bot has answered it, or when Slack's 3 s would otherwise run out.

// DefaultAckDeadline is how long a submitted modal waits for the bot's
// answer before it is acknowledged plainly (Slack allows 3 s).
const DefaultAckDeadline = 2500 * time.Millisecond

// Limits of an errors acknowledgement.
const (
	maxFieldError = 2000 // characters of one field's error message
	maxAckErrors  = 5    // fields named: a Socket Mode answer stays far below its 20 KB
)

// acker acknowledges one view_submission exactly once: with errors (the
// modal stays open) when the bot refuses the submission in time, plainly
// (the modal closes) otherwise. Its methods are safe for concurrent use
// and do nothing on a nil acker, which stands for "already acknowledged".
type acker struct {
	once  sync.Once
	send  func(resp *slack.ViewSubmissionResponse) // nil resp: a plain ack
	timer *time.Timer
}

// newAcker returns the acker of a submission received now: past deadline
// it acknowledges plainly by itself.
func newAcker(deadline time.Duration, send func(resp *slack.ViewSubmissionResponse)) *acker {
	a := &acker{send: send}
	a.timer = time.AfterFunc(deadline, a.plain)
	return a
}

// ack sends resp, or a plain ack for nil, unless the submission was
// acknowledged already; it reports whether it sent.
func (a *acker) ack(resp *slack.ViewSubmissionResponse) bool {
	if a == nil {
		return false
	}
	sent := false
	a.once.Do(func() {
		sent = true
		a.send(resp)
	})
	return sent
}

// plain acknowledges without a payload: the modal closes.
func (a *acker) plain() { a.ack(nil) }

// refuse acknowledges with the errors by field ID (the block IDs of the
// modal's inputs) and reports whether it could: false when the submission
// was acknowledged already, and the errors must be shown another way.
func (a *acker) refuse(fields map[string]string) bool {
	if len(fields) == 0 {
		return false
	}
	return a.ack(slack.NewErrorsViewSubmissionResponse(viewErrors(fields)))
}

// finish ends the acker once the handler has returned: a submission the
// bot did not answer is acknowledged plainly.
func (a *acker) finish() {
	if a == nil {
		return
	}
	a.timer.Stop()
	a.plain()
}

// viewErrors are the bot's field errors as Slack shows them: plain text,
// clipped, for a few fields at most (the first by ID).
func viewErrors(fields map[string]string) map[string]string {
	ids := make([]string, 0, len(fields))
	for id := range fields {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := map[string]string{}
	for _, id := range ids[:min(len(ids), maxAckErrors)] {
		out[id] = clip(plain(fields[id]), maxFieldError)
	}
	return out
}

// socketPayload is an ack's payload for socketmode.Client.AckCtx: none for
// a plain ack (a nil *ViewSubmissionResponse would be sent as null).
func socketPayload(resp *slack.ViewSubmissionResponse) any {
	if resp == nil {
		return nil
	}
	return resp
}

// writeViewAck answers a view_submission request: the errors as JSON, or
// an empty 200.
func writeViewAck(w http.ResponseWriter, resp *slack.ViewSubmissionResponse) {
	if resp == nil {
		w.WriteHeader(http.StatusOK)
		return
	}
	body, err := json.Marshal(resp)
	if err != nil { // a map of strings always marshals; close the modal anyway
		w.WriteHeader(http.StatusOK)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
