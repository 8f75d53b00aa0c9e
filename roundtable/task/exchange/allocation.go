package exchange

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
)

// Canonical is the identity of a as a candidate: two proposals with the same
// string are the same candidate. Amounts are rounded to 1e-6 and written
// compactly, e.g. "[[80,10,10],[10,80,10],[10,10,80]]". The economy does
// not validate a; rows keep their lengths.
func (e *Economy) Canonical(a Allocation) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, row := range a {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		for k, x := range row {
			if k > 0 {
				b.WriteByte(',')
			}
			if math.IsNaN(x) || math.IsInf(x, 0) {
				b.WriteString("null")
				continue
			}
			b.WriteString(num(x))
		}
		b.WriteByte(']')
	}
	b.WriteByte(']')
	return b.String()
}

// ParseAllocation reads an allocation written as JSON, either a bare matrix
// [[80,10,10],[10,80,10],[10,10,80]] (row i = agent i's amounts of each good)
// or an object {"allocation": [[...], ...]} (other keys are ignored). It
// checks only the syntax; use Economy.Validate for feasibility. Errors match
// ErrInvalid and are safe to show to the proposer.
func ParseAllocation(data []byte) (Allocation, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, invalidf("empty allocation: want one row per agent, e.g. 80 10 10; 10 80 10; 10 10 80 (or JSON [[80,10,10],...])")
	}
	var a Allocation
	if data[0] != '{' && data[0] != '[' {
		return parseRows(string(data))
	}
	if data[0] == '{' {
		var wrapped struct {
			Allocation *Allocation `json:"allocation"`
		}
		if err := json.Unmarshal(data, &wrapped); err != nil {
			return nil, invalidf("allocation is not valid JSON: %s", jsonReason(err))
		}
		if wrapped.Allocation == nil {
			return nil, invalidf(`allocation object has no "allocation" key`)
		}
		a = *wrapped.Allocation
	} else if err := json.Unmarshal(data, &a); err != nil {
		return nil, invalidf("allocation is not valid JSON: %s", jsonReason(err))
	}
	if len(a) == 0 {
		return nil, invalidf("allocation is empty: want one row per agent")
	}
	for i, row := range a {
		if row == nil {
			return nil, invalidf("row %d is null, want a list of amounts", i+1)
		}
	}
	return a, nil
}

// jsonReason turns a decoding error into a short message without Go type
// names.
func jsonReason(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return "want a list of rows, each a list of numbers, found a " + typeErr.Value
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// parseRows reads the plain form people type: one row per agent, rows
// separated by ";" or line breaks, amounts by spaces or commas:
// "80 10 10; 10 80 10; 10 10 80".
func parseRows(text string) (Allocation, error) {
	var a Allocation
	for i, line := range strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '\n' }) {
		fields := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\r' })
		if len(fields) == 0 {
			continue
		}
		row := make([]float64, len(fields))
		for k, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, invalidf("row %d: %q is not a number (write rows like 80 10 10; 10 80 10; 10 10 80)", i+1, f)
			}
			row[k] = v
		}
		a = append(a, row)
	}
	if len(a) == 0 {
		return nil, invalidf("allocation is empty: want one row per agent")
	}
	return a, nil
}
