package web

// scriptWords are the sentences the room's script shows, by key; the page
// carries them as JSON (roomPage.Words) and the script fills in {0}, {1}…
// Keys ending in ".one" and ".many" are a noun's singular and plural,
// which the script picks by count ("1 round", "2 rounds").
var scriptWords = map[string]string{
	// Acts and their refusals.
	"act.noName":        "Choose a name first.",
	"act.refused":       "Refused ({0})",
	"act.unreachable":   "The server cannot be reached; your action may not be recorded.",
	"act.noCandidate":   "Choose a candidate first.",
	"act.atLeast":       "Choose at least {0}.",
	"act.noProposal":    "Write a proposal first.",
	"act.confirmStop":   "Stop the table now? Its decision so far becomes its output.",
	"act.confirmClose":  "Close the {0} phase now, before its deadline?",
	"act.notifyBlocked": "Notifications are blocked in this browser.",
	"act.conn":          "Reconnecting…",

	// Posts and their controls.
	"post.botAuthor": "roundtable",
	"post.agentTag":  "bot",
	"control.choose": "Choose…",
	"control.vote":   "Vote",
	"control.send":   "Send",
	"file.download":  "Download {0}",

	// The composer.
	"say.message":     "Write to the table (Enter sends, Shift+Enter for a new line)",
	"say.other":       "Messages are taken in the message phase; commands such as /roundtable vote B work here.",
	"say.otherNoVote": "Messages are taken in the message phase; commands such as /roundtable status work here.",
	"say.waiting":     "The table has not started yet: messages are taken once it does.",
	"say.ended":       "The table has ended.",

	// Dialogs.
	"form.optional":   " (optional)",
	"form.none":       "(none)",
	"form.points":     "Points used: {0} of {1}",
	"form.fillIn":     "Please fill in: {0}",
	"form.whole":      "{0}: a whole number of 0 or more",
	"form.overBudget": "You used {0} points; you have {1}.",
	"form.twice":      "Candidate {0} is ranked twice.",
	"form.pick":       "{0}: choose one answer.",
	"form.slider":     "Your answer: {0}",
	"form.untouched":  "Not answered yet: move the slider to your answer.",
	"form.move":       "{0}: move the slider to your answer.",

	// What the viewer can do now.
	"turn.message":  "Your turn: write your message.",
	"turn.proposal": "Your turn: propose, or skip.",
	"turn.vote":     "Your turn: vote.",
	"turn.survey":   "Your turn: answer the survey.",
	"turn.private":  "Your turn: write your private message.",
	"todo.ended":    "The table has ended.",
	"todo.watching": "You are watching: press Join to take a seat.",
	"todo.waiting":  "Waiting for the table to start.",
	"note.started":  "The table has started: act in each phase as the conversation asks.",
	"todo.notTurn":  "Not your turn in this phase: waiting for {0}.",
	"todo.done":     "Done for this phase: waiting for the others.",
	"todo.acted":    "{0} of {1} acted",
	"title.turn":    "(Your turn) ",

	// The status line.
	"status.running": "Round {0} of {1} · {2} phase",
	"status.created": "waiting to start",
	"status.ended":   "ended",
	"status.left":    "{0} left",
	"status.soon":    "One minute left in the {0} phase: act now if you want to.",

	// The table card.
	"table.rule":     "Rule: {0}. {1} ",
	"table.mode":     "Messages: {0}.",
	"table.noneYet":  "none yet",
	"seat.ended":     "The table has ended.",
	"seat.seated":    "You have a seat at this table.",
	"seat.watching":  "You are watching. Press Join to take a seat.",
	"people.bot":     " (bot)",
	"people.you":     " (you)",
	"people.acted":   " ✓ acted",
	"people.waiting": " … waiting",
	"people.parts":   "{0}: {1}",
	"people.watches": "only watches",
	"history.won":    "Round {0}: accepted {1}",
	"history.none":   "Round {0}: no winner",
	"history.dec":    "Decision: {0}",

	// Ballot hints by rule.
	"ballot.rated":      "Rated: A=5 B=2 … (1 to 5 for every candidate)",
	"ballot.cumulative": "Cumulative: A=2 B=1 (at most as many points as candidates)",
	"ballot.ranked":     "Ranked: C > A > B (best first)",
	"ballot.approval":   "Approval: A C (every candidate you approve)",
	"ballot.one":        "One candidate, e.g. B, or abstain",

	// The waiting room.
	"wait.organiser": "Waiting for the organiser to start the table.",
	"wait.youStart":  "Press Start when everyone is in: no clock runs until then.",
	"wait.nobody":    "Nobody has taken a seat yet.",

	// Nouns.
	"round.one":  "round",
	"round.many": "rounds",
}
