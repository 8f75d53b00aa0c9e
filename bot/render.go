package bot

import (
	"fmt"
	"sort"
	"strconv"
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
	b.WriteString(renderSchedule(s))
	if s.Config.Protocol.Plays(roundtable.PhaseMessage) { // a questionnaire has no messages to reveal
		fmt.Fprintf(&b, " Mode: %s", s.Config.Mode)
		switch {
		case s.Config.Protocol.InTurn():
			b.WriteString(" (everyone speaks in turn, in seat order; each message shows as it comes)")
		case s.Config.Mode == roundtable.Sealed:
			b.WriteString(" (messages are revealed together when the message phase closes)")
		}
		b.WriteString(".")
	}
	b.WriteString(secretNote(s) + "\nAt the table: " + seatNames(s) + ".")
	switch {
	case waiting(s):
		b.WriteString("\nPress **Join** to take a seat. " + startWords(s))
	case s.Status != roundtable.StatusEnded && seatsFull(s):
		b.WriteString("\nEvery seat is taken. The table started at " + clockWords(startedAt(s)) + ".")
	case s.Status != roundtable.StatusEnded:
		b.WriteString("\nPress **Join** to take a seat. The table started at " + clockWords(startedAt(s)) + ".")
	}
	return b.String()
}

// seatsFull reports whether s is sized by its seats (an exchange economy
// once it has started) and every seat is taken: nobody else may join.
func seatsFull(s *roundtable.State) bool {
	n, err := strconv.Atoi(s.Config.Task.Params[roundtable.ParamSeats])
	return err == nil && n > 0 && len(s.Participants) >= n
}

// startedAt is when s started: its TableStarted, or (a table that
// started at once) its creation.
func startedAt(s *roundtable.State) time.Time {
	if !s.Started.IsZero() {
		return s.Started
	}
	return s.Created
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

func renderPhaseOpen(s *roundtable.State, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Round %d of %d: %s phase**", s.Round, s.Config.Rounds, s.Phase)
	if !s.Deadline.IsZero() {
		fmt.Fprintf(&b, " (closes in %s)", s.Deadline.Sub(now).Round(time.Second))
	}
	b.WriteString("\n")
	switch ph := s.Phase; {
	case ph == roundtable.PhaseMessage:
		b.WriteString("Send one message to the table: write it in this thread or press **Write message**.")
		switch {
		case s.Config.Protocol.InTurn():
			b.WriteString(" Everyone speaks in turn, in seat order, and each message shows as it comes.")
		case s.Config.Mode == roundtable.Sealed:
			b.WriteString(" Messages are revealed together when the phase closes; use the button to keep yours sealed until then.")
		}
	case ph == roundtable.PhaseProposal && s.Config.Protocol.Mediated():
		b.WriteString(renderMediatorTurn(s))
	case ph == roundtable.PhaseProposal:
		b.WriteString("Propose a solution with **Propose**, or **Skip** to keep your latest proposal as your candidate.")
		if s.Decision != nil {
			b.WriteString("\nCurrent decision: " + quote(s.Decision.Proposal.Text))
		}
	case ph == roundtable.PhaseVote && shuffled(s):
		b.WriteString(renderShuffledVote(s))
		b.WriteString(secretNote(s))
	case ph == roundtable.PhaseVote:
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
		fmt.Fprintf(&b, "%s counted, %d abstained", plural(t.Counted, "ballot", "ballots"), t.Abstained)
		if n := len(r.Rejected); n > 0 {
			fmt.Fprintf(&b, ", %d refused", n)
		}
		b.WriteString(".\n")
	}
	switch {
	case t.Winner != "" && r.Decision != nil:
		fmt.Fprintf(&b, "Accepted: **%s** %s", t.Winner, quote(r.Decision.Proposal.Text))
	default:
		b.WriteString("No decision this round: " + noWinnerWords(s, t) + ".")
	}
	if t.Winner == "" && r.Decision != nil {
		b.WriteString("\nThe decision stays: " + quote(r.Decision.Proposal.Text))
	}
	if s.Config.Protocol.Mediated() {
		b.WriteString(leftOutWords(s, r))
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
		roundtable.EndKept:        "because no revision beat the group's statement",
	}[s.EndReason]
	if reason == "" {
		reason = "(" + s.EndReason + ")"
	}
	switch {
	case rates(s):
		return fmt.Sprintf("**The panel has ended %s.**\n%s", reason, renderRankings(s))
	case s.Output == nil && !s.Config.Protocol.Plays(roundtable.PhaseVote): // a table that never votes decides nothing
		return fmt.Sprintf("**The table has ended %s.**", reason)
	case s.Output == nil:
		return fmt.Sprintf("**The table has ended %s.** Nothing was decided.", reason)
	case s.Config.Protocol.Mediated():
		return fmt.Sprintf("**The table has ended %s.** The group's statement: %s", reason, quote(s.Output.Proposal.Text))
	}
	return fmt.Sprintf("**The table has ended %s.** Decision: %s", reason, quote(s.Output.Proposal.Text))
}

func renderStatus(s *roundtable.State, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**: %s", titleOf(s), statusWords(s.Status))
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
	if s.Status == roundtable.StatusCreated {
		b.WriteString(". " + startWords(s))
	}
	b.WriteString("\nAt the table: " + seatNames(s))
	if s.Decision != nil {
		b.WriteString("\nCurrent decision: " + quote(s.Decision.Proposal.Text))
	}
	return b.String()
}

func quote(s string) string { return "“" + clip(s, 1500) + "”" }
