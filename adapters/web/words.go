package web

import (
	"fmt"
	"strings"
)

// The web channel's words: what its pages, their scripts and its refusals
// say to people, kept here so that they read alike and match the bot's
// (a phase is a "message phase", a bot "speaks, proposes, votes", the one
// who starts a table is its "organiser"). Templates hold the prose of
// each page; sentences the handlers build, and every sentence the room's
// script shows, come from here (the script gets scriptWords in the page).

// roomWords words the bot's chat texts for the web channel, where a table
// lives in a room, not a chat thread.
var roomWords = strings.NewReplacer(
	"in its own thread", "in its own room",
	"in this thread", "in this room",
	"in the thread", "in the room",
)

// fieldLabels are the create form's labels of the start command's
// options, as the page shows them.
var fieldLabels = map[string]string{
	"topic": "What should the table decide?", "title": "Title", "preset": "Preset", "rule": "Voting rule",
	"rounds": "Rounds", "early_stop": "Stop early", "mode": "Messages", "message": "Message phase",
	"proposal": "Proposal phase", "vote": "Vote phase", "audit": "Audit", "audit_statement": "Statement under audit",
	"self_report": "Self-report", "secret": "Ballots", "agents": "Bot agents", "quorum": "Quorum", "task": "Task",
	"start": "Start", "seats": "Seats", "start_at": "Start time", "items": "Items to judge",
}

// optionOrder lists the options of fieldLabels longest first, so that
// "audit_statement: " is not read as "audit".
var optionOrder = []string{"audit_statement", "self_report", "early_stop", "start_at", "proposal", "message", "preset",
	"agents", "quorum", "rounds", "secret", "items", "seats", "start", "audit", "title", "topic", "rule", "mode", "vote", "task"}

// formWords are the create form's own refusals.
var formWords = struct {
	needName, outOfDate, notRunning, sentTwice, needTopic, badRounds, badDuration string
	notHost                                                                       string
	// botReasons replace whole reasons of the bot that name chat syntax.
	botReasons map[string]string
}{
	needName:    "Please give your name.",
	outOfDate:   "The form is out of date; reload the page.",
	notRunning:  "The table service is not running; try again in a moment.",
	sentTwice:   "This form was already sent; reload the page to start another table.",
	needTopic:   "Write what the table should decide, or choose a preset.",
	badRounds:   "Rounds: %q is not a number from 1 to 100.",
	badDuration: "%s: %q is not a duration such as 90s, 3m or 1h.",
	notHost: "Refused: you may not start tables here: on this server only the host link creates tables. " +
		"Ask whoever runs it for a table's join link, or to set web.open_lobby = true.",
	botReasons: map[string]string{
		"say what the table decides: topic:<question>, or preset:<name>": "Write what the table should decide, or choose a preset.",
	},
}

// sprintf formats one of these words.
func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// plural writes n and the noun, singular for one: "1 round", "3 rounds".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
