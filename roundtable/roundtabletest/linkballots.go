package roundtabletest

import (
	"maps"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// LinkBallots is the linking attack on a secret-ballot table's log as one
// viewer got it (decoded from a download): it returns each tally ballot
// label it can tie to a person, label → the person's ID as the log names
// them. A tally ballot whose voter is a participant's ID links at once.
// A label links when it is missing from exactly the rounds in which
// exactly one person, the same, cast no ballot: who cast a ballot in a
// round is read from the actors of its ballot events, shown or withheld.
// Everyone at the table sees who has voted, so whoever has the log and
// that knowledge can do the same.
func LinkBallots(events []roundtable.Event) map[string]string {
	people := map[string]bool{}
	cast, labels := map[int]map[string]bool{}, map[int]map[string]bool{}
	add := func(m map[int]map[string]bool, r int, id string) {
		if m[r] == nil {
			m[r] = map[string]bool{}
		}
		if id != "" {
			m[r][id] = true
		}
	}
	for _, e := range events {
		switch d := e.Data.(type) {
		case roundtable.TableCreated:
			for _, p := range d.Config.Participants {
				people[p.ID] = true
			}
		case roundtable.ParticipantJoined:
			people[d.Participant.ID] = true
		case roundtable.BallotCast:
			add(cast, d.Round, e.Actor)
		case roundtable.Withheld:
			if d.Type == (roundtable.BallotCast{}).EventType() {
				add(cast, d.Round, e.Actor)
			}
		case roundtable.DecisionMade:
			for _, b := range d.Tally.Ballots {
				add(labels, d.Round, b.Voter)
			}
		}
	}
	links := map[string]string{}
	voters, all := union(cast), union(labels)
	for label := range all {
		if people[label] {
			links[label] = label
		}
	}
	for r, ls := range labels {
		absent, unlabelled := missing(voters, cast[r]), missing(all, ls)
		if len(absent) == 1 && len(unlabelled) == 1 {
			links[unlabelled[0]] = absent[0]
		}
	}
	return links
}

func union(m map[int]map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, s := range m {
		maps.Copy(out, s)
	}
	return out
}

// missing returns the members of all that are not in some.
func missing(all, some map[string]bool) []string {
	var out []string
	for id := range all {
		if !some[id] {
			out = append(out, id)
		}
	}
	return out
}
