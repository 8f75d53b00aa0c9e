package openai

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

// wrap turns a go-openai error into an *agent.Error with a code, the usage
// spent, and a message scrubbed of the API key.
func (c *Client) wrap(ctx context.Context, err error, u roundtable.Usage) error {
	return &agent.Error{Code: classify(ctx, err), Usage: u,
		Err: &scrubbed{msg: "openai endpoint " + quoteName(c.cfg.Name) + ": " + err.Error(), key: c.cfg.APIKey.Reveal(), err: err}}
}

func quoteName(s string) string { return `"` + s + `"` }

// classify maps an error to an agent.Code.
func classify(ctx context.Context, err error) agent.Code {
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return agent.CodeCanceled
	case ctx.Err() != nil, errors.Is(err, context.DeadlineExceeded):
		return agent.CodeTimeout
	}
	if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() {
		return agent.CodeTimeout
	}
	switch status := httpStatus(err); {
	case status == http.StatusTooManyRequests:
		return agent.CodeRateLimit
	case status == http.StatusRequestTimeout:
		return agent.CodeTimeout
	case status >= 500, status == 0:
		return agent.CodeUnavailable
	}
	return agent.CodeRejected
}

// httpStatus is the HTTP status in a go-openai error, or 0.
func httpStatus(err error) int {
	if e := (*goopenai.APIError)(nil); errors.As(err, &e) {
		return e.HTTPStatusCode
	}
	if e := (*goopenai.RequestError)(nil); errors.As(err, &e) {
		return e.HTTPStatusCode
	}
	if errors.Is(err, goopenai.ErrReasoningModelMaxTokensDeprecated) || errors.Is(err, goopenai.ErrReasoningModelLimitationsOther) {
		return http.StatusBadRequest
	}
	return 0
}

// scrubbed is an error whose message has the API key removed, in case a
// server or proxy echoed it back. Unwrap still gives the original error to
// errors.Is and errors.As; print only the scrubbed message.
type scrubbed struct {
	msg, key string
	err      error
}

func (e *scrubbed) Error() string {
	if len(e.key) < 4 {
		return e.msg
	}
	return strings.ReplaceAll(e.msg, e.key, redacted)
}

func (e *scrubbed) Unwrap() error { return e.err }
