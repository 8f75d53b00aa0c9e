package audit

import (
	"math"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
)

// Summary is the audit of a set of tables (chats).
type Summary struct {
	Tables        int     `json:"tables"`
	ChangedTables int     `json:"changed_tables"` // chats with at least one unwarranted change
	ChangedShare  float64 `json:"changed_share"`  // NaN for no tables
	// Participants counts everyone audited, people and bots, and
	// ParticipantsChanged those with an unwarranted change; Bots and
	// BotsChanged count the bots among them.
	Participants        int `json:"participants"`
	ParticipantsChanged int `json:"participants_changed"`
	Bots                int `json:"bots"`
	BotsChanged         int `json:"bots_changed"`
	Changes             int `json:"changes"`
	// Tally is every classified message's tally: the changes by
	// direction and the level-to-level matrix.
	Tally stance.Changes `json:"tally"`
	// Kappa is Cohen's kappa of the stance classifier against people's
	// self-reports over KappaN (participant, round) pairs; NaN for none.
	Kappa  float64 `json:"kappa"`
	KappaN int     `json:"kappa_n"`
	// Slopes are the bias slopes pooled over every participant.
	Slopes  Slopes `json:"slopes"`
	Missing int    `json:"missing"`
}

// Summarize audits a set of tables.
func Summarize(tables []*Table) Summary {
	s := Summary{Tables: len(tables), ChangedShare: math.NaN(), Kappa: math.NaN()}
	var pts []biasPoint
	var self, classified []string
	for _, t := range tables {
		if t.Changed() {
			s.ChangedTables++
		}
		s.Missing += t.Missing
		for _, p := range t.Participants {
			s.Participants++
			s.Changes += p.Changes
			s.Tally.Merge(p.Tally)
			if p.Changes > 0 {
				s.ParticipantsChanged++
			}
			if p.Bot {
				s.Bots++
				if p.Changes > 0 {
					s.BotsChanged++
				}
			}
			a, b := p.agreementPairs()
			self, classified = append(self, a...), append(classified, b...)
		}
		for _, bp := range t.biasPoints() {
			pts = append(pts, bp...)
		}
	}
	if s.Tables > 0 {
		s.ChangedShare = float64(s.ChangedTables) / float64(s.Tables)
	}
	if k, err := Kappa(self, classified); err == nil {
		s.Kappa, s.KappaN = k, len(self)
	}
	s.Slopes = fitSlopes(pts)
	return s
}

// agreementPairs pairs each self-report of round r with the classifier's
// reading of the participant's last classified message of round r (a
// message with no opinion present reads as neutral). Reports of rounds
// with no classified message are left out.
func (p *Participant) agreementPairs() (self, classified []string) {
	for _, r := range p.SelfReports {
		var got *Message
		for i := range p.Messages {
			if m := &p.Messages[i]; m.Round == r.Round && m.Classified {
				got = m
			}
		}
		if got == nil {
			continue
		}
		l := stance.Neutral
		if got.HasStance {
			l = got.Stance
		}
		self, classified = append(self, r.Level.Label()), append(classified, l.Label())
	}
	return self, classified
}
