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

// Permanent reports whether retrying the operation that returned err
// cannot succeed: a Refusal, or an error an adapter marked permanent
// because the platform rejected the request itself (an unknown channel, a
// malformed message). Network errors, 5xx and timeouts are not permanent;
// rate limits never reach the service.
func Permanent(err error) bool {
	var p interface{ Permanent() bool }
	return errors.As(err, &p) && p.Permanent()
}

// Permanent implements the mark Permanent looks for.
func (r *Refusal) Permanent() bool { return true }

// PermanentError marks an adapter's error as permanent (see Permanent).
type PermanentError struct{ Err error }

// Error implements error.
func (e *PermanentError) Error() string { return e.Err.Error() }

// Unwrap returns the platform's error.
func (e *PermanentError) Unwrap() error { return e.Err }

// Permanent implements the mark Permanent looks for.
func (e *PermanentError) Permanent() bool { return true }
