package export

import "github.com/roundtable-ai/roundtable/roundtable"

// secret hides the ballots of secret-ballot tables (roundtable.SecretBallots:
// only the organiser's pseudonymised export of a table created to allow it
// keeps them under voter pseudonyms; a participant's export never does)
// and drops every table's pseudonym key.
func secret(events []roundtable.Event, opt Options) []roundtable.Event {
	events = roundtable.SecretBallots(events, opt.Pseudonymize && opt.Viewer.Organiser)
	for i, e := range events {
		if d, ok := e.Data.(roundtable.TableCreated); ok && d.Config.Secret.Key != "" {
			d.Config.Secret = d.Config.Secret.Public()
			events[i].Data = d
		}
	}
	return events
}
