package openai

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

// apiError is the OpenAI-style error in err's chain, or nil.
func apiError(err error) *goopenai.APIError {
	e := (*goopenai.APIError)(nil)
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// quotaExhausted reports a 429 that says the account has no quota left,
// which waiting does not fix (unlike a rate limit).
func quotaExhausted(err error) bool {
	e := apiError(err)
	return e != nil && e.HTTPStatusCode == http.StatusTooManyRequests &&
		(fmt.Sprint(e.Code) == "insufficient_quota" || e.Type == "insufficient_quota")
}

// quotaBody reports a response body that says insufficient_quota.
func quotaBody(b []byte) bool { return strings.Contains(string(b), "insufficient_quota") }

// schemaRefused reports a 400 that refuses the response_format of a
// json_schema request (servers word it differently; all name the field or
// the mode): the mode itself, or a schema the server finds invalid for
// strict structured output ("Invalid schema for response_format ...").
// Either way the answer will not come in that mode; json_object, with the
// schema in the prompt, asks for the same answer without it.
func schemaRefused(err error) bool {
	if httpStatus(err) != http.StatusBadRequest {
		return false
	}
	if e := apiError(err); e != nil && e.Param != nil && (*e.Param == "response_format" || strings.HasPrefix(*e.Param, "response_format.")) {
		return true
	}
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "response_format") || strings.Contains(msg, "json_schema")
}

// schemaInvalid reports a refused schema, as opposed to a refused mode.
func schemaInvalid(err error) bool {
	return strings.Contains(strings.ToLower(err.Error()), "invalid schema")
}

// fatal says, for an error no retry can fix, what went wrong and what to
// change; ok is false for errors that may pass (a bad answer to one
// request, a timeout).
func (c *Client) fatal(err error, mode agent.OutputMode) (string, bool) {
	status := httpStatus(err)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return fmt.Sprintf("the server refused the API key (HTTP %d); check api_key_env (the variable holding the key) and the key's permissions", status), true
	case status == http.StatusNotFound:
		return fmt.Sprintf("HTTP 404: there is no model %q at %s; check model (Ollama: ollama pull %s), and that base_url ends in /v1", c.cfg.Model, c.cfg.BaseURL, c.cfg.Model), true
	case quotaExhausted(err):
		return "the account has no quota left (429 insufficient_quota); add credit or use another key (waiting does not help)", true
	case mode == agent.OutputJSONSchema && schemaRefused(err) && schemaInvalid(err):
		return `the server refuses a schema as invalid for strict json_schema structured output; set structured_output = "json_object" (or leave it unset to fall back automatically)`, true
	case mode == agent.OutputJSONSchema && schemaRefused(err):
		return `the server does not accept json_schema structured output; set structured_output = "json_object" (or leave it unset to fall back automatically)`, true
	}
	return "", false
}

// brokenError is the single message of an open breaker.
func (c *Client) brokenError(what string, cause error) error {
	return &scrubbed{key: c.cfg.APIKey.Reveal(), err: cause,
		msg: fmt.Sprintf("openai endpoint %q (model %s at %s): %s; last error: %v", c.cfg.Name, c.cfg.Model, c.cfg.BaseURL, what, cause)}
}
