package slack

import (
	"strings"
	"unicode"
)

// Option names the bot understands, recognised as "name:value" in a
// command's text. Anything else with a colon ("Lunch: where?", "a:5") is
// plain text.
var optionNames = map[string]bool{
	"topic": true, "preset": true, "rule": true, "rounds": true, "agents": true, "mode": true,
	"early_stop": true, "title": true, "join": true, "message": true, "proposal": true, "vote": true,
	"text": true, "ballot": true, "table": true, "format": true, "names": true, "secret": true, "by": true,
	"start": true, "seats": true, "start_at": true, "people": true, "facilitator_votes": true,
	"reason": true,
}

// freeText options run on over the following unquoted words:
// topic:Where do we eat? rounds:2 gives the topic "Where do we eat?".
var freeText = map[string]bool{"topic": true, "title": true, "text": true, "ballot": true, "reason": true}

// mainOption is the option the bare words of a command fill.
func mainOption(command string) string {
	switch command {
	case "start":
		return "topic"
	case "propose":
		return "text"
	case "vote":
		return "ballot"
	case "study":
		return "name" // "study start NAME"
	}
	return "table"
}

// parseCommand reads "/roundtable" text: a subcommand, then name:value
// options (values may be "quoted"; an empty value is kept) and bare words,
// which become the command's main option.
func parseCommand(text string) (string, map[string]string) {
	toks := tokenize(text)
	opts := map[string]string{}
	if len(toks) == 0 {
		return "", opts
	}
	command := strings.ToLower(toks[0].text)
	var bare []string
	open := "" // the free-text option that takes the next bare words
	for _, t := range toks[1:] {
		if name, value, ok := t.option(); ok {
			opts[name] = value
			open = ""
			if freeText[name] && !t.quoted {
				open = name
			}
			continue
		}
		if open != "" {
			opts[open] = strings.TrimSpace(opts[open] + " " + t.text)
			continue
		}
		bare = append(bare, t.text)
	}
	if len(bare) > 0 {
		if main := mainOption(command); opts[main] == "" {
			opts[main] = strings.Join(bare, " ")
		}
	}
	return command, opts
}

// token is a word of a command, with quotes removed.
type token struct {
	text    string
	quoted  bool // the token's value was quoted
	leading bool // the whole token was quoted: never an option
}

// option splits a "name:value" token whose name the bot knows.
func (t token) option() (string, string, bool) {
	name, value, ok := strings.Cut(t.text, ":")
	name = strings.ToLower(name)
	if !ok || t.leading || !optionNames[name] {
		return "", "", false
	}
	return name, value, true
}

// tokenize splits text at spaces outside quotes. Straight and curly double
// quotes both work (Slack clients may curl them); \" is a literal quote.
func tokenize(text string) []token {
	var out []token
	var cur strings.Builder
	inQuote, started, quoted, leading := false, false, false, false
	runes := []rune(text)
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		switch {
		case r == '\\' && inQuote && i+1 < len(runes) && isQuote(runes[i+1]):
			cur.WriteRune(runes[i+1])
			i++
		case isQuote(r):
			leading = leading || !started
			inQuote, started, quoted = !inQuote, true, true
		case unicode.IsSpace(r) && !inQuote:
			if started {
				out = append(out, token{text: cur.String(), quoted: quoted, leading: leading})
			}
			cur.Reset()
			started, quoted, leading = false, false, false
		default:
			cur.WriteRune(r)
			started = true
		}
	}
	if started {
		out = append(out, token{text: cur.String(), quoted: quoted, leading: leading})
	}
	return out
}

func isQuote(r rune) bool { return r == '"' || r == '“' || r == '”' }
