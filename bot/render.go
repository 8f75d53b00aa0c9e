package bot

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// The texts the bot posts. They use the markdown subset of Message.Text.

func renderIntro(s *roundtable.State, brief string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**\n%s\n\n", titleOf(s), brief)
	if s.Config.Protocol.Plays(roundtable.PhaseVote) { // a panel or a chatroom never votes
		fmt.Fprintf(&b, "Rule: **%s**. %s\n", s.Config.Rule, s.Config.Rule.Describe())
	}
	fmt.Fprintf(&b, "%s Mode: %s", renderSchedule(s), s.Config.Mode)
	if s.Config.Mode == roundtable.Sealed {
		b.WriteString(" (messages are revealed together when the message phase closes)")
	}
	b.WriteString("." + secretNote(s) + "\nAt the table: " + names(s.Participants) + ".\nPress **Join** to take a seat.")
	if s.Status == roundtable.StatusCreated && !seatsPerson(s) {
		b.WriteString(" Round 1 opens when the first person joins, or when the organiser presses **Start now**.")
	}
	return b.String()
}

func titleOf(s *roundtable.State) string {
	if s.Config.Title != "" {
		return s.Config.Title
	}
	if s.Config.Task.Topic != "" {
		return clip(s.Config.Task.Topic, 80)
	}
	return "Table " + s.ID
}

func names(ps []roundtable.Participant) string {
	if len(ps) == 0 {
		return "nobody yet"
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
		if p.Kind == roundtable.Bot {
			out[i] += " (bot)"
		}
	}
	return strings.Join(out, ", ")
}

func renderPhaseOpen(s *roundtable.State, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Round %d of %d: %s phase**", s.Round, s.Config.Rounds, s.Phase)
	if !s.Deadline.IsZero() {
		fmt.Fprintf(&b, " (closes in %s)", s.Deadline.Sub(now).Round(time.Second))
	}
	b.WriteString("\n")
	switch s.Phase {
	case roundtable.PhaseMessage:
		b.WriteString("Send one message to the table: write it in this thread or press **Write message**.")
		if s.Config.Mode == roundtable.Sealed {
			b.WriteString(" Messages are revealed together when the phase closes; use the button to keep yours sealed until then.")
		}
	case roundtable.PhaseProposal:
		b.WriteString("Propose a solution with **Propose**, or **Skip** to keep your latest proposal as your candidate.")
		if s.Decision != nil {
			b.WriteString("\nCurrent decision: " + quote(s.Decision.Proposal.Text))
		}
	case roundtable.PhaseVote:
		b.WriteString("Candidates:\n")
		for _, c := range s.Candidates {
			b.WriteString(renderCandidate(c, s))
		}
		b.WriteString(s.Config.Rule.Describe())
		b.WriteString("\nYou can change your ballot until the phase closes; the last valid one counts.")
		b.WriteString(secretNote(s))
	default:
		b.WriteString(renderProtocolPhase(s))
	}
	b.WriteString(renderTurn(s))
	return b.String()
}

func renderCandidate(c roundtable.Candidate, s *roundtable.State) string {
	var who []string
	for _, id := range c.Proposers {
		p, _ := s.Participant(id)
		who = append(who, nameOr(p, id))
	}
	tag := ""
	if c.Incumbent {
		tag = " (current decision)"
	}
	by := ""
	if len(who) > 0 {
		by = " by " + strings.Join(who, ", ")
	}
	return fmt.Sprintf("- **%s**%s%s: %s\n", c.ID, tag, by, quote(c.Proposal.Text))
}

func nameOr(p roundtable.Participant, id string) string {
	if p.Name != "" {
		return p.Name
	}
	return id
}

// renderMessage is how a revealed or live message reads when the bot posts
// it for a human (agents speak under their own name instead).
func renderMessage(from string, m roundtable.Message, to []string) string {
	prefix := "**" + from + "**"
	if len(to) > 0 {
		prefix += " (to " + strings.Join(to, ", ") + ")"
	}
	return prefix + ": " + m.Text
}

func renderTally(s *roundtable.State, r roundtable.RoundRecord) string {
	var b strings.Builder
	t := r.Tally
	fmt.Fprintf(&b, "**Round %d result**\n", r.Round)
	if t == nil {
		return b.String()
	}
	if len(r.Candidates) > 0 {
		ids := make([]string, 0, len(t.Totals))
		for id := range t.Totals {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			fmt.Fprintf(&b, "- %s: %s\n", id, t.Totals[id])
		}
		fmt.Fprintf(&b, "%d counted, %d abstained", t.Counted, t.Abstained)
		if n := len(r.Rejected); n > 0 {
			fmt.Fprintf(&b, ", %d rejected", n)
		}
		b.WriteString(".\n")
	}
	switch {
	case t.Winner != "" && r.Decision != nil:
		fmt.Fprintf(&b, "Accepted: **%s** %s", t.Winner, quote(r.Decision.Proposal.Text))
	case t.Reason != "":
		b.WriteString("No winner: " + t.Reason + ".")
	default:
		b.WriteString("No winner.")
	}
	if t.Winner == "" && r.Decision != nil {
		b.WriteString("\nThe decision stays: " + quote(r.Decision.Proposal.Text))
	}
	return b.String()
}

func renderEnd(s *roundtable.State) string {
	reason := map[string]string{
		roundtable.EndRounds:      "after the last round",
		roundtable.EndFirst:       "at the first agreement",
		roundtable.EndConsecutive: "because nobody proposed anything new after an agreement",
		roundtable.EndAgreement:   "because everyone agreed",
		roundtable.EndConvergence: "because opinions stopped moving",
	}[s.EndReason]
	if reason == "" {
		reason = "(" + s.EndReason + ")"
	}
	switch {
	case s.Output == nil && !s.Config.Protocol.Plays(roundtable.PhaseVote): // a table that never votes decides nothing
		return fmt.Sprintf("**The table has ended %s.**", reason)
	case s.Output == nil:
		return fmt.Sprintf("**The table has ended %s.** Nothing was decided.", reason)
	}
	return fmt.Sprintf("**The table has ended %s.** Decision: %s", reason, quote(s.Output.Proposal.Text))
}

func renderStatus(s *roundtable.State, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**: %s", titleOf(s), s.Status)
	if s.Status == roundtable.StatusRunning {
		fmt.Fprintf(&b, ", round %d of %d, %s phase", s.Round, s.Config.Rounds, s.Phase)
		if !s.Deadline.IsZero() {
			fmt.Fprintf(&b, ", closes in %s", s.Deadline.Sub(now).Round(time.Second))
		}
		var waiting []string
		for _, p := range s.Pending() {
			waiting = append(waiting, p.Name)
		}
		if len(waiting) > 0 {
			b.WriteString("\nWaiting for: " + strings.Join(waiting, ", "))
		}
	}
	b.WriteString("\nAt the table: " + names(s.Participants))
	if s.Decision != nil {
		b.WriteString("\nCurrent decision: " + quote(s.Decision.Proposal.Text))
	}
	return b.String()
}

func quote(s string) string { return "“" + clip(s, 1500) + "”" }
