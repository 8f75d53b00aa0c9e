package roundtable

import (
	"errors"
	"fmt"
	"slices"
	"strings"
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

// DamageError is a store's report of stored data it cannot read: a
// damaged page of its file, met where the code expected a well-formed
// one. It names the file and the tables whose data lies under the
// damage. A store's Tables returns it together with the summaries of the
// tables it could read; Load returns it for a damaged table, together
// with the events stored before the damage.
type DamageError struct {
	File string
	// Tables are the damaged tables, each with what reading it met.
	Tables map[string]error
	// Err is damage under no one table (the file's own structures).
	Err error
}

// Error implements error: the file, then each table and what was met.
func (e *DamageError) Error() string {
	ids := make([]string, 0, len(e.Tables))
	for id := range e.Tables {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	parts := make([]string, 0, len(ids)+1)
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("table %s: %v", id, e.Tables[id]))
	}
	if e.Err != nil {
		parts = append(parts, e.Err.Error())
	}
	return fmt.Sprintf("database %s is damaged: %s", e.File, strings.Join(parts, "; "))
}

// IsDamage reports whether err is, or wraps, a *DamageError.
func IsDamage(err error) bool {
	var d *DamageError
	return errors.As(err, &d)
}

// DamagedTables returns the tables err reports damaged (a *DamageError in
// its chain), each with what reading it met; nil when it reports none.
func DamagedTables(err error) map[string]error {
	var d *DamageError
	if errors.As(err, &d) {
		return d.Tables
	}
	return nil
}
