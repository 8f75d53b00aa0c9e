package bot

import "github.com/roundtable-ai/roundtable/roundtable"

// The bot's plain words that the web channel shows beside its own posts
// (its side panel, dashboard and survey buttons), from this one place.

// NoWinnerWords says in plain words why the vote of tally t at table s
// chose nothing, as the bot's posts say it (the reason the vote package
// records is for the log).
func NoWinnerWords(s *roundtable.State, t *roundtable.Tally) string {
	return noWinnerWords(s, t)
}

// LevelWords names a survey level for people, as the bot's buttons do
// ("strongly disagree" for the stance scale's "strongly agree with the
// complement").
func LevelWords(label string) string { return levelWords(label) }
