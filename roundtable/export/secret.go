package export

import "github.com/roundtable-ai/roundtable/roundtable"

// secret hides the ballots of secret-ballot tables (roundtable.SecretBallots:
// only a pseudonymised export of a table that allows it keeps them, under
// voter pseudonyms) and drops every table's pseudonym key.
func secret(events []roundtable.Event, opt Options) []roundtable.Event {
	events = roundtable.SecretBallots(events, opt.Pseudonymize)
	for i, e := range events {
		if d, ok := e.Data.(roundtable.TableCreated); ok && d.Config.Secret.Key != "" {
			d.Config.Secret = d.Config.Secret.Public()
			events[i].Data = d
		}
	}
	return events
}
