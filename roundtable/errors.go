package roundtable

import (
	"errors"
	"fmt"
)

// Code classifies an error for the edge that shows it to a person.
type Code string

// The error codes. Each maps to a user-safe message at the edge.
const (
	Invalid   Code = "invalid"   // the request breaks a rule; the message says which
	NotFound  Code = "not_found" // the table, participant or candidate does not exist
	Conflict  Code = "conflict"  // the request does not fit the table's current state
	Forbidden Code = "forbidden" // the actor may not do this
	Duplicate Code = "duplicate" // the action was already recorded (idempotent retry)
	Internal  Code = "internal"  // anything else; details are logged, not shown
)

// Error is a domain error with a message that is safe to show to the person
// who caused it.
type Error struct {
	Code    Code
	Message string
	Err     error // optional cause, never shown to users
}

// Error implements error.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, Internal for
// any other non-nil error, and "" for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// ErrorMessage returns the user-safe message of err: the domain message for
// an *Error, "internal error" for anything else.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) && e.Code != Internal {
		return e.Message
	}
	return "internal error"
}
