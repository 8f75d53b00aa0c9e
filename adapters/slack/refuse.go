package slack

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/slack-go/slack"

	"github.com/roundtable-ai/roundtable/bot"
)

// Refusals. Slack refuses the app's calls in a channel it has not joined
// (not_in_channel), in a private channel it is not in (channel_not_found)
// and in an archived one (is_archived). Retrying cannot help until someone
// invites the app or unarchives the channel, so such errors become
// bot.Refusals that say what to do; the service shows them to the person
// who acted, and since the app cannot post where they acted, Reply
// answers through the act's response_url.

// channelNames remembers channels' names from slash commands, to name
// them in refusals (the app may not be allowed to look them up).
type channelNames struct {
	mu    sync.Mutex
	names map[string]string
}

func (c *channelNames) put(id, name string) {
	if id == "" || name == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.names == nil {
		c.names = map[string]string{}
	}
	c.names[id] = name
}

// of names channel "#name", or "this channel" when unknown.
func (c *channelNames) of(channel string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := c.names[channel]; n != "" {
		return "#" + n
	}
	return "this channel"
}

// refused returns err as a bot.Refusal when Slack refused to act in
// channel for a reason a person must fix, and err itself otherwise.
func (p *Platform) refused(channel string, err error) error {
	var se slack.SlackErrorResponse
	if !errors.As(err, &se) {
		return err
	}
	if transient[se.Err] {
		return err
	}
	where := p.names.of(parseRef(channel).Channel)
	var reason string
	switch se.Err {
	case "not_in_channel":
		reason = fmt.Sprintf("I am not a member of %s. Invite me there with /invite @roundtable, then try again.", where)
	case "channel_not_found":
		reason = fmt.Sprintf("I cannot see %s (a private channel I am not in?). Invite me there with /invite @roundtable, then try again.", where)
	case "is_archived":
		reason = fmt.Sprintf("%s is archived. Unarchive it, or use roundtable in another channel.", capitalise(where))
	default:
		return &bot.PermanentError{Err: err} // the request itself was refused
	}
	return &bot.Refusal{Reason: reason, Err: err}
}

// transient are Slack's error codes that a retry may overcome.
var transient = map[string]bool{"ratelimited": true, "internal_error": true, "fatal_error": true,
	"service_unavailable": true, "request_timeout": true, "team_added_to_org": true}

func capitalise(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// respond answers the act behind o privately through its response_url,
// which works where the app may not post. The body is written here, with
// only the message's fields: slack-go's PostMessage with a response_url
// adds an empty "metadata" object to it.
func (p *Platform) respond(ctx context.Context, o origin, text string) error {
	if o.ResponseURL == "" {
		return errors.New("slack: no response_url to answer through")
	}
	for _, pt := range renderMessage(bot.Message{Text: text}) {
		body, err := json.Marshal(responseMessage{ResponseType: slack.ResponseTypeEphemeral, Text: pt.text, Blocks: pt.blocks})
		if err != nil {
			return fmt.Errorf("slack response_url: encode: %w", err)
		}
		if err := p.pace.retry(ctx, func(ctx context.Context) error { return p.postResponse(ctx, o.ResponseURL, body) }); err != nil {
			return fmt.Errorf("slack response_url: %w", err)
		}
	}
	return nil
}

// responseMessage is the body of a message sent to a response_url.
type responseMessage struct {
	ResponseType string        `json:"response_type"`
	Text         string        `json:"text"`
	Blocks       []slack.Block `json:"blocks,omitempty"`
}

// postResponse sends body to a response_url; a status other than 200 is
// a slack.StatusCodeError (a 429 is waited out by the pacer).
func (p *Platform) postResponse(ctx context.Context, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	client := p.cfg.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return slack.StatusCodeError{Code: resp.StatusCode, Status: resp.Status}
	}
	return nil
}
