package export

import "github.com/roundtable-ai/roundtable/roundtable"

// learnShuffled gives the humans of each table in events their pseudonyms
// in the table's keyed order (roundtable.PseudonymOrder), so "human-1" is
// not the first seat: whoever knows the seating cannot read the
// pseudonyms back to names.
func (p pseudonyms) learnShuffled(events []roundtable.Event) {
	var (
		cfg   roundtable.Config
		table string
		ids   []string
	)
	flush := func() {
		for _, id := range roundtable.PseudonymOrder(cfg, table, "human", ids) {
			p.learn(roundtable.Participant{ID: id, Kind: roundtable.Human})
		}
		ids = nil
	}
	for _, e := range events {
		switch d := e.Data.(type) {
		case roundtable.TableCreated:
			flush()
			cfg, table = d.Config, e.Table
			for _, part := range d.Config.Participants {
				if part.Kind == roundtable.Human {
					ids = append(ids, part.ID)
				}
			}
		case roundtable.ParticipantJoined:
			if d.Participant.Kind == roundtable.Human {
				ids = append(ids, d.Participant.ID)
			}
		}
	}
	flush()
}
