package bot

import (
	"errors"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Refusal is an error by which a platform refused an operation for a
// reason retrying cannot fix until someone changes something: the bot
// lacks a permission, is not in the channel, the channel is archived.
// Adapters return it (wrapped) from Post, Edit, StartThread, Reply and
// Upload. Reason says what is wrong and what to do, in words safe to show
// to people; the service shows it to whoever caused the operation, and a
// delivery worker does not retry it.
type Refusal struct {
	Reason string
	Err    error // the platform's error
}

// Error implements error.
func (r *Refusal) Error() string {
	if r.Err == nil {
		return r.Reason
	}
	return r.Reason + ": " + r.Err.Error()
}

// Unwrap returns the platform's error and the reason as a Forbidden
// domain error, so roundtable.ErrorMessage shows the reason.
func (r *Refusal) Unwrap() []error {
	return []error{r.Err, &roundtable.Error{Code: roundtable.Forbidden, Message: r.Reason}}
}

// Refused reports whether err is, or wraps, a Refusal, and returns it.
func Refused(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}
