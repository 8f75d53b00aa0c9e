// Package facilitator is a rule-based participant for free-text tables: it
// needs no language model, so a live table on the embedded defaults still
// has a bot at it. It never proposes; each round it sums up where the table
// stands and backs the candidate with the broadest support. At protocol
// tables (panel, chatroom, dyads) it invites those who have not spoken,
// writes a neutral private note and reports the middle of every survey
// scale.
package facilitator

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Kind is the facilitator's agent kind (roundtable.Participant.Agent).
const Kind = "facilitator"

// Parts are what the facilitator does at a live table: it speaks, and it
// votes only when its organiser asks for it (votes), so that its ballot
// is never a hidden confound. Headless seats play every part.
func Parts(votes bool) []roundtable.Part {
	if votes {
		return []roundtable.Part{roundtable.PartSpeak, roundtable.PartVote}
	}
	return []roundtable.Part{roundtable.PartSpeak}
}

// Agent is the facilitator. The zero value is ready to use.
type Agent struct{}

var _ roundtable.Agent = Agent{}

// HistoryRounds implements roundtable.HistoryLimiter: the facilitator
// reads only the last round, except under a protocol, where it invites
// whoever has not spoken at all yet.
func (Agent) HistoryRounds(protocol string) int {
	if protocol != "" {
		return 0
	}
	return 1
}

// Act implements roundtable.Agent.
func (Agent) Act(_ context.Context, v roundtable.View) (roundtable.Action, error) {
	if a, ok := actScheduled(v); ok {
		return a, nil
	}
	switch v.Phase {
	case roundtable.PhaseMessage:
		return roundtable.Say{Text: summary(v)}, nil
	case roundtable.PhaseProposal:
		return roundtable.Skip{Reasoning: "the facilitator backs the group's proposals and makes none of its own"}, nil
	case roundtable.PhaseVote:
		return roundtable.Cast{Ballot: ballot(v.Rule, ranked(v.Candidates))}, nil
	}
	return nil, fmt.Errorf("facilitator: nothing to do in phase %s", v.Phase)
}

// summary is the facilitator's message: what the last round left.
func summary(v roundtable.View) string {
	if len(v.History) == 0 {
		if !v.Self.Plays(roundtable.PartVote) {
			return "Hello, I am " + v.Self.Name + ". Say what matters to you and propose something concrete. " +
				"I do not vote here: each round I sum up where the table stands."
		}
		return "Hello, I am " + v.Self.Name + ". Say what matters to you and propose something concrete; " +
			"I will back whichever proposal has the broadest support."
	}
	last := v.History[len(v.History)-1]
	var b strings.Builder
	fmt.Fprintf(&b, "Round %d: %s, %s.", last.Round, count(len(last.Messages), "message", "messages"), count(len(last.Proposals), "new proposal", "new proposals"))
	if last.Tally != nil && last.Tally.Winner != "" && v.Decision != nil {
		fmt.Fprintf(&b, " We accepted %q.", clip(v.Decision.Proposal.Text, 120))
	} else if v.Decision != nil {
		fmt.Fprintf(&b, " No new agreement; the decision stays %q.", clip(v.Decision.Proposal.Text, 120))
	} else {
		b.WriteString(" Nothing is decided yet.")
	}
	if left := v.Rounds - v.Round + 1; left > 0 {
		fmt.Fprintf(&b, " %s left: can someone propose a version more of us can accept?", count(left, "round", "rounds"))
	}
	return b.String()
}

// ranked orders candidates by support: most proposers first, then the
// current decision, then table order.
func ranked(cands []roundtable.Candidate) []roundtable.Candidate {
	out := append([]roundtable.Candidate(nil), cands...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if len(a.Proposers) != len(b.Proposers) {
			return len(a.Proposers) > len(b.Proposers)
		}
		return a.Incumbent && !b.Incumbent
	})
	return out
}

// ballot fills in the rule's ballot from the support order.
func ballot(rule vote.Rule, order []roundtable.Candidate) vote.Ballot {
	if len(order) == 0 {
		return vote.Ballot{Abstain: true}
	}
	ids := make([]string, len(order))
	for i, c := range order {
		ids[i] = c.ID
	}
	switch rule.Format() {
	case vote.FormatScores:
		scores := map[string]int{}
		for i, id := range ids {
			scores[id] = max(vote.MaxScore-i, vote.MinScore)
		}
		return vote.Ballot{Scores: scores}
	case vote.FormatRanking:
		return vote.Ballot{Ranking: ids}
	case vote.FormatPoints:
		return vote.Ballot{Points: map[string]int{ids[0]: len(ids)}}
	case vote.FormatApprove:
		return vote.Ballot{Approve: ids[:1]}
	}
	return vote.Ballot{Choice: ids[0]}
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// count writes n with its noun: "1 round", "2 rounds".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
