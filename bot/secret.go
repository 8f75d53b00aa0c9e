package bot

import (
	"crypto/rand"
	"encoding/hex"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// secretOption applies the start command's secret option: "yes" makes the
// ballot secret, "research" also lets the pseudonymised export keep the
// ballots under voter pseudonyms, "no" makes the ballot open (overriding
// a preset).
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

// secretNote tells the table its ballots are secret, or says nothing.
func secretNote(s *roundtable.State) string {
	if !s.Config.Secret.Ballots {
		return ""
	}
	return "\nBallots are secret: nobody, the organiser included, sees who voted what; only the tallies are shown."
}
