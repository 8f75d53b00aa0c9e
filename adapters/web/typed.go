package web

import (
	"strings"
)

// commandPrefix starts a command typed in a room's message box, as the
// bot's hints write them ("/roundtable vote ballot:B").
const commandPrefix = "/roundtable"

// mainOption is the option a command's bare argument fills.
var mainOption = map[string]string{"propose": "text", "vote": "ballot"}

// typedCommand reads a message that is a typed command: the command's
// name and options ("propose text:Soup" or "propose Soup"; "export
// format:csv names:keep"). ok is false for an ordinary message.
func typedCommand(text string) (name string, opts map[string]string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(text), commandPrefix)
	if !found || rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '\n' {
		return "", nil, false
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return "help", map[string]string{}, true
	}
	name, opts = strings.ToLower(fields[0]), map[string]string{}
	arg := strings.TrimSpace(strings.TrimSpace(rest)[len(fields[0]):])
	if key, ok := mainOption[name]; ok {
		if ballot, reason, ok := strings.Cut(arg, " reason:"); ok && name == "vote" { // "vote B reason:it is cheaper"
			arg, opts["reason"] = ballot, strings.TrimSpace(reason)
		}
		if arg = strings.TrimSpace(strings.TrimPrefix(arg, key+":")); arg != "" {
			opts[key] = arg
		}
		return name, opts, true
	}
	for _, f := range strings.Fields(arg) {
		if k, v, ok := strings.Cut(f, ":"); ok {
			opts[strings.ToLower(k)] = v
		}
	}
	return name, opts, true
}
