package roundtable

import "slices"

// Decision: a self-report (PROTOCOL.md section 6) is a survey answer, so an
// audited table that asks for self-reports gets a survey phase at the end
// of every round, on the five stance levels relative to the statement
// under audit. The schedule is fixed when the table is created and
// recorded in its TableCreated event, so the survey is an ordinary phase:
// every participant (agents too) answers through Report, the answers are
// SurveyAnswered events, the phase closes at its deadline like any other,
// and logs written before, without the phase, replay as they were.

// withSelfReports returns c with the survey its audit's self-reports need:
// RoundTable's schedule (message, proposal, vote) becomes an explicit
// protocol with a survey after the vote, and another protocol gains a
// stance survey at the end of its round unless its round already has a
// survey. c is unchanged when it asks for no self-reports.
func (c Config) withSelfReports() Config {
	if c.Audit == nil || !c.Audit.SelfReport {
		return c
	}
	survey := Step{Phase: PhaseSurvey, Speakers: SpeakEveryone, Scale: StanceScale(c.Audit.Statement)}
	if c.Protocol == nil {
		if c.EarlyStop == StopConsecutive {
			return c // Validate refuses it, naming both keys
		}
		stop := StopRule{Kind: StopRounds}
		if c.EarlyStop == StopFirst {
			stop.Kind = StopAgreement
		}
		c.EarlyStop = StopNever
		c.Protocol = &Protocol{Name: ProtocolRoundTable, Stop: stop, Round: []Step{
			{Phase: PhaseMessage}, {Phase: PhaseProposal}, {Phase: PhaseVote}, survey}}
		return c
	}
	if slices.ContainsFunc(c.Protocol.Round, func(s Step) bool { return s.Phase == PhaseSurvey }) {
		return c
	}
	pr := *c.Protocol
	pr.Round = append(slices.Clone(pr.Round), survey)
	c.Protocol = &pr
	return c
}

// checkSelfReports refuses self-reports that the schedule cannot hold.
func (c Config) checkSelfReports() error {
	if c.Audit != nil && c.Audit.SelfReport && c.Protocol == nil && c.EarlyStop == StopConsecutive {
		return Errorf(Invalid, "self_report: a table that asks for self-reports stops by rounds or first agreement, not early_stop %q", c.EarlyStop)
	}
	return nil
}

// IsSelfReport reports whether a survey on scale sc reads as a self-report
// of stance: one value from -2 to 2 (the five stance levels of PROTOCOL.md
// section 6, or the dyads' belief, which the audit rounds to a level).
func IsSelfReport(sc *Scale) bool {
	return sc != nil && sc.Values() == 1 && sc.Min == -2 && sc.Max == 2
}
