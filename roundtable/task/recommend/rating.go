package recommend

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// ratingForms ends every rating error, telling the proposer what is accepted.
const ratingForms = `want an integer from 1 to 5, as data {"rating": 4} or text "rating 4"`

// ParseRating reads the rating of a proposal. Data, when present, wins: an
// object {"rating": n} (other keys are ignored) or a bare number n.
// Otherwise Text is read: "n", "rating n", "rating: n" or "n/5", case and
// surrounding space ignored. n must be a whole number from 1 to 5; 4.0
// counts as 4, 3.5 does not. Errors are *roundtable.Error with code Invalid.
func ParseRating(p roundtable.Proposal) (int, error) {
	data := bytes.TrimSpace(p.Data)
	if len(data) > 0 && !bytes.Equal(data, []byte("null")) {
		return ratingData(data)
	}
	text := strings.ToLower(strings.TrimSpace(p.Text))
	if text == "" {
		return 0, invalid("the proposal is empty: %s", ratingForms)
	}
	text = strings.TrimPrefix(text, "rating")
	text = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), ":"))
	text = strings.TrimSpace(strings.TrimSuffix(text, "/5"))
	return rating(text)
}

func ratingData(data []byte) (int, error) {
	if data[0] != '{' {
		return rating(string(data))
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return 0, invalid("the data is not a JSON object: %s", ratingForms)
	}
	v, ok := obj["rating"]
	if !ok {
		return 0, invalid(`the data has no "rating": %s`, ratingForms)
	}
	if v = bytes.TrimSpace(v); len(v) > 0 && v[0] == '"' {
		return 0, invalid("rating %s is a string, not a number: %s", quote(string(v)), ratingForms)
	}
	return rating(string(v))
}

// rating checks a number written as text.
func rating(s string) (int, error) {
	x, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil || math.IsNaN(x) || math.IsInf(x, 0):
		return 0, invalid("rating %s is not a number: %s", quote(s), ratingForms)
	case x != math.Trunc(x):
		return 0, invalid("rating %s is not a whole number: %s", s, ratingForms)
	case x < 1 || x > 5:
		return 0, invalid("rating %s is out of range: %s", s, ratingForms)
	}
	return int(x), nil
}

// quote shows s in an error, shortened so a long text stays readable.
func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strconv.Quote(s)
}

func invalid(format string, args ...any) error {
	return roundtable.Errorf(roundtable.Invalid, format, args...)
}
