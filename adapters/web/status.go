package web

import (
	"net/http"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// refusal is why the bot (or the web channel) did not act on a request:
// the domain's error code and the reason for the person who asked.
type refusal struct {
	Code   roundtable.Code
	Reason string
}

// outcome is what became of one delivered event: the room it opened, the
// texts the bot replied, and the refusal, if it was refused.
type outcome struct {
	Room    string
	Replies []string
	Refusal refusal
}

// status is the HTTP status that answers a request refused with code:
// 4xx when the person's request was refused, 5xx when the server failed.
// A duplicate (a retried request already recorded) is a success.
func status(code roundtable.Code) int {
	switch code {
	case "", roundtable.Duplicate:
		return http.StatusOK
	case roundtable.Invalid:
		return http.StatusUnprocessableEntity
	case roundtable.NotFound:
		return http.StatusNotFound
	case roundtable.Conflict:
		return http.StatusConflict
	case roundtable.Forbidden:
		return http.StatusForbidden
	}
	return http.StatusInternalServerError
}
