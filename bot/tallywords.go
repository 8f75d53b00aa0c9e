package bot

import "github.com/roundtable-ai/roundtable/roundtable"

// NoWinnerWords says in plain words why the vote of tally t at table s
// chose nothing, as the bot's posts say it (the reason the vote package
// records is for the log): the web's side panel and dashboard use it.
func NoWinnerWords(s *roundtable.State, t *roundtable.Tally) string {
	return noWinnerWords(s, t)
}
