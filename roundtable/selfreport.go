package roundtable

import "slices"

// Decision: a self-report (docs/protocol.md#live-audit) is a survey answer, so an
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
// stance survey at the end of its round unless its round already has one.
// c is unchanged when it asks for no self-reports. It refuses, naming the
// keys, a stop rule or a protocol that cannot hold the survey. Only
// tables being created go through it: a recorded config is never
// changed, so logs written before replay as they were.
func (c Config) withSelfReports() (Config, error) {
	if c.Audit == nil || !c.Audit.SelfReport {
		return c, nil
	}
	survey := Step{Phase: PhaseSurvey, Speakers: SpeakEveryone, Scale: StanceScale(c.Audit.Statement)}
	if c.Protocol == nil {
		stop := StopRule{Kind: StopRounds}
		switch c.EarlyStop {
		case StopFirst:
			stop.Kind = StopAgreement
		case StopConsecutive:
			return c, Errorf(Invalid, "self_report: a table that asks for self-reports stops by rounds or first agreement, not early_stop %q", c.EarlyStop)
		}
		c.EarlyStop = StopNever
		c.Protocol = &Protocol{Name: ProtocolRoundTable, Stop: stop, Round: []Step{
			{Phase: PhaseMessage}, {Phase: PhaseProposal}, {Phase: PhaseVote}, survey}}
		return c, nil
	}
	i := slices.IndexFunc(c.Protocol.Round, func(s Step) bool { return s.Phase == PhaseSurvey })
	switch {
	case i >= 0 && IsSelfReport(c.Protocol.Round[i].Scale):
		return c, nil // its survey is a self-report already
	case i >= 0:
		return c, Errorf(Invalid, "self_report: the %s protocol's survey (%s) is not a stance survey, and its round holds one survey only", c.Protocol, c.Protocol.Round[i].Scale.Describe())
	}
	pr := *c.Protocol
	pr.Round = append(slices.Clone(pr.Round), survey)
	c.Protocol = &pr
	return c, nil
}

// IsSelfReport reports whether a survey on scale sc reads as a self-report
// of stance: one value from -2 to 2 (the five stance levels of
// docs/protocol.md#stance-and-its-auditing, or the dyads' belief, which the audit rounds to a level).
func IsSelfReport(sc *Scale) bool {
	return sc != nil && sc.Values() == 1 && sc.Min == -2 && sc.Max == 2
}

// ValidateNew reports the first problem with c as the config of a table
// about to be created: Validate's, and those of the schedule its
// self-reports need (see Create). A recorded config is checked with
// Validate alone.
func (c Config) ValidateNew() error {
	c, err := c.withSelfReports()
	if err != nil {
		return err
	}
	// Checked for new tables only, so that a stored log replays as it was.
	for _, p := range []Phase{PhaseMessage, PhaseProposal, PhaseVote} {
		if d := c.Durations.For(p); d < 0 {
			return Errorf(Invalid, "%s: the phase duration %v is negative", p, d)
		}
	}
	return c.Validate()
}
