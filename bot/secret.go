package bot

import (
	"crypto/rand"
	"encoding/hex"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// secretOption applies the start command's secret option: "yes" makes the
// ballot secret, "research" also lets the organiser's pseudonymised export
// keep each person's ballots under one voter pseudonym across rounds, "no"
// makes the ballot open (overriding a preset).
func secretOption(cfg *roundtable.Config, opt map[string]string) error {
	switch v := strings.ToLower(strings.TrimSpace(opt["secret"])); v {
	case "":
	case "yes", "on", "true":
		cfg.Secret.Ballots, cfg.Secret.Research = true, false
	case "research":
		cfg.Secret.Ballots, cfg.Secret.Research = true, true
	case "no", "off", "false":
		cfg.Secret.Ballots, cfg.Secret.Research = false, false
	default:
		return roundtable.Errorf(roundtable.Invalid, "secret: %q is not yes, research or no", opt["secret"])
	}
	return nil
}

// pseudonymKey returns a fresh key for a live table's pseudonyms
// (roundtable.Secrecy.Key): 16 random bytes.
func pseudonymKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// secretNote tells the table its ballots are secret, and what the
// organiser's research export keeps of them, or says nothing.
func secretNote(s *roundtable.State) string {
	switch {
	case s.Config.Secret.Research:
		return "\nBallots are secret at the table: nobody sees who voted what; only the tallies are shown. " +
			"This table was created with research labels (secret:research): the organiser's pseudonymised export keeps " +
			"each person's ballots under one voter label, the same in every round, which the organiser, " +
			"who sees who voted when, could link to a person."
	case s.Config.Secret.Ballots:
		return "\nBallots are secret: nobody, the organiser included, sees who voted what; only the tallies are shown."
	}
	return ""
}
