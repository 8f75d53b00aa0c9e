package roundtable

import (
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Secrecy says who may learn how each participant voted.
type Secrecy struct {
	// Ballots makes the ballot secret: nobody, the organiser included,
	// learns who voted what, during or after the table. Everyone sees who
	// has voted and the tallies; ballots are shown without their voters.
	Ballots bool `json:"ballots,omitempty"`
	// Research lets the organiser's pseudonymised research export of a
	// secret-ballot table keep each ballot under a voter pseudonym
	// ("voter-3") that stays the same across rounds and that no other
	// field of any export shares. It is set when the table is created, and
	// the table says so to its participants: whoever knows who took part
	// in each vote may link such a pseudonym to a person, so no export but
	// the organiser's carries it. Without it no export links a ballot to
	// anyone, and no ballot has a label.
	Research bool `json:"research,omitempty"`
	// Key keys the table's pseudonyms (see PseudonymOrder). It is secret:
	// every show or export path drops it (Secrecy.Public).
	Key string `json:"key,omitempty"`
}

// Public returns the secrecy without its key, which no viewer may see.
func (s Secrecy) Public() Secrecy {
	s.Key = ""
	return s
}

// pseudonymKey is the key of a table's pseudonyms: its secret key, or for
// tables recorded without one, its ID and seed.
func (c Config) pseudonymKey(table string) []byte {
	if c.Secret.Key != "" {
		return []byte(c.Secret.Key)
	}
	return []byte(table + "/" + strconv.FormatInt(c.Seed, 10))
}

// PseudonymOrder returns ids (the people of one table) in the order in
// which they get their pseudonyms: sorted by a keyed hash of the table's
// key, so the order follows neither seat nor join order, and nobody
// without the key can recompute it from the people's platform IDs.
func PseudonymOrder(cfg Config, table, purpose string, ids []string) []string {
	key := cfg.pseudonymKey(table)
	rank := make(map[string]uint64, len(ids))
	for _, id := range ids {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(purpose + "\x00" + id))
		rank[id] = binary.BigEndian.Uint64(m.Sum(nil))
	}
	out := slices.Clone(ids)
	slices.SortFunc(out, func(a, b string) int {
		return cmp.Or(cmp.Compare(rank[a], rank[b]), strings.Compare(a, b))
	})
	return out
}

// SecretBallots returns a secret-ballot table's log with no link from a
// voter to a ballot, as every viewer (the organiser included) and every
// export sees it; the logs of other tables are returned as they are.
// BallotCast and BallotRejected, and the Withheld events that stand for
// them, become Withheld events without an actor, key, ballot or reason (a
// ballot was cast, by someone); a decision's tally keeps its totals and
// its ballots without voters, in a canonical order that is each round's
// own, and its rejections without voters. Nothing then carries a voter
// from one round to the next: neither a label nor the actors of the
// round's ballots, whose absence in one round (an abstention everyone
// saw) would otherwise point at a person.
//
// With organiserResearch set (the organiser's pseudonymised research
// export, and nothing else) and the table's Secrecy.Research on, tally
// ballots keep a voter pseudonym ("voter-N") stable across the table
// instead. The input is not modified; its events may be of several
// tables.
//
// It is the one secret-ballot check: every path that shows or exports a
// table's ballots applies it (export.Write and WriteSheet, the web
// dashboard); it is meant to become an input of the visibility rule.
func SecretBallots(events []Event, organiserResearch bool) []Event {
	out := make([]Event, len(events))
	var sec *secretTable
	for i, e := range events {
		if d, ok := e.Data.(TableCreated); ok {
			sec = newSecretTable(e.Table, d.Config, events[i:], organiserResearch)
		}
		if sec == nil || sec.table != e.Table {
			out[i] = e
			continue
		}
		out[i] = sec.event(e)
	}
	return out
}

// secretTable hides the ballots of one secret-ballot table.
type secretTable struct {
	table  string
	voters map[string]string // voter pseudonyms; nil: ballots lose their voter
}

func newSecretTable(table string, cfg Config, rest []Event, research bool) *secretTable {
	if !cfg.Secret.Ballots {
		return nil
	}
	s := &secretTable{table: table}
	if research && cfg.Secret.Research {
		s.voters = map[string]string{}
		for i, id := range PseudonymOrder(cfg, table, "voter", votersOf(table, rest)) {
			s.voters[id] = fmt.Sprintf("voter-%d", i+1)
		}
	}
	return s
}

// votersOf lists everyone who cast a ballot at table, once each.
func votersOf(table string, evs []Event) []string {
	var ids []string
	for _, e := range evs {
		if _, ok := e.Data.(BallotCast); ok && e.Table == table && !slices.Contains(ids, e.Actor) {
			ids = append(ids, e.Actor)
		}
	}
	return ids
}

func (s *secretTable) event(e Event) Event {
	switch d := e.Data.(type) {
	case BallotCast:
		e = anonymousBallot(e, d.EventType(), d.Round)
	case BallotRejected:
		e = anonymousBallot(e, d.EventType(), d.Round)
	case Withheld:
		if d.secretBallot() {
			e = anonymousBallot(e, d.Type, d.Round)
		}
	case DecisionMade:
		d.Tally = s.tally(d.Tally)
		e.Data = d
	}
	return e
}

// anonymousBallot is e, a ballot event of round r, as a Withheld event of
// nobody.
func anonymousBallot(e Event, typ string, r int) Event {
	e.Actor, e.Key = "", ""
	e.Data = Withheld{Type: typ, Round: r, Phase: PhaseVote}
	return e
}

func (s *secretTable) tally(t Tally) Tally {
	bs := make([]vote.Ballot, len(t.Ballots))
	for i, b := range t.Ballots {
		b.Voter = s.voters[b.Voter] // "" unless the research export keeps it
		if s.voters == nil {
			b.Reason = "" // a reason in the voter's words could name the voter
		}
		bs[i] = b
	}
	slices.SortFunc(bs, func(a, b vote.Ballot) int {
		return strings.Compare(a.Voter+"\x00"+a.String(), b.Voter+"\x00"+b.String())
	})
	t.Ballots = bs
	rej := make([]vote.Rejection, len(t.Rejected))
	for i := range t.Rejected {
		rej[i] = vote.Rejection{Reason: "secret ballot"}
	}
	t.Rejected = rej
	return t
}
