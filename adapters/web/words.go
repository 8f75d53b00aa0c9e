package web

import "strings"

// roomWords words the bot's chat texts for the web channel, where a table
// lives in a room, not a chat thread.
var roomWords = strings.NewReplacer(
	"in its own thread", "in its own room",
	"in this thread", "in this room",
	"in the thread", "in the room",
)
