package web

import (
	"net/url"
	"strconv"
	"strings"
	"time"
)

// formProblems checks the create form as the page shows it, before the
// bot sees it: what is wrong, in the form's own words (its labels), so
// that nobody at a browser is told about chat options or command-line
// flags. The bot checks everything again.
func formProblems(form url.Values) []string {
	var out []string
	if strings.TrimSpace(form.Get("topic")) == "" && form.Get("preset") == "" {
		out = append(out, formWords.needTopic)
	}
	if v := strings.TrimSpace(form.Get("rounds")); v != "" {
		if n, err := strconv.Atoi(v); err != nil || n < 1 || n > 100 {
			out = append(out, sprintf(formWords.badRounds, v))
		}
	}
	for _, f := range []string{"message", "proposal", "vote"} {
		if v := strings.TrimSpace(form.Get(f)); v != "" && !validDuration(v) {
			out = append(out, sprintf(formWords.badDuration, fieldLabels[f], v))
		}
	}
	return out
}

// validDuration reports whether the form's duration v reads: a plain
// number of seconds, or a duration such as 90s, 3m or 1h30m, up to a day.
func validDuration(v string) bool {
	if strings.Trim(v, "0123456789") == "" {
		v += "s"
	}
	d, err := time.ParseDuration(v)
	return err == nil && d >= 0 && d <= 24*time.Hour
}

// pageReason words a reason the bot gave for refusing a table in the
// form's terms: the start command's option names become the form's
// labels ("rounds: …" reads "Rounds: …"), and chat syntax goes.
func pageReason(reason string) string {
	if r, ok := formWords.botReasons[reason]; ok {
		return r
	}
	for _, opt := range optionOrder {
		if rest, ok := strings.CutPrefix(reason, opt+": "); ok {
			return fieldLabels[opt] + ": " + rest
		}
	}
	return reason
}
