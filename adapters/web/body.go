package web

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/roundtable-ai/roundtable/bot"
)

// decodeJSON reads a request body into v, refusing one that is not valid
// UTF-8 or escapes half a surrogate pair ("\ud800"): encoding/json would
// replace either with U+FFFD without a word, and record text its author
// did not write (bot.Unreadable).
func decodeJSON(body io.Reader, v any) error {
	data, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	if why := bot.Unreadable(data); why != "" {
		return fmt.Errorf("the body cannot be taken as written: %s", why)
	}
	return json.Unmarshal(data, v)
}

// formUTF8Errors names each form field whose value is not valid UTF-8.
func formUTF8Errors(form url.Values) []string {
	var errs []string
	for _, key := range slices.Sorted(maps.Keys(form)) {
		for _, v := range form[key] {
			if !utf8.ValidString(v) {
				errs = append(errs, fmt.Sprintf("The field %q %s.", key, strings.TrimPrefix(bot.Unreadable([]byte(v)), "it ")))
				break
			}
		}
	}
	return errs
}

// keepNames reads a download's names parameter: "keep" (the organiser's
// names), or "" or "pseudonymize" (people as human-1, human-2, ...).
func keepNames(q url.Values) (bool, error) {
	switch v := q.Get("names"); v {
	case "keep":
		return true, nil
	case "", "pseudonymize":
		return false, nil
	default:
		return false, fmt.Errorf("names=%q: want keep or pseudonymize", v)
	}
}

// downloadNames reads a download's names parameter and whether the visitor
// organises the room; only the organiser may keep names. ok=false after
// writing the refusal.
func (p *Platform) downloadNames(w http.ResponseWriter, r *http.Request, v visitor, roomID string) (keep, organiser, ok bool) {
	keep, err := keepNames(r.URL.Query())
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return false, false, false
	}
	organiser = p.organiser(r, v, roomID)
	if keep && !organiser {
		writeError(w, http.StatusForbidden, "only the table's organiser can download it with names")
		return false, false, false
	}
	return keep, organiser, true
}
