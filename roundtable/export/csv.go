package export

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Header is the first row of a CSV export.
func Header() []string {
	return []string{"table", "seq", "time", "type", "actor", "round", "phase", "summary", "data"}
}

// maxSummary bounds the summary column, in runes; data has everything.
const maxSummary = 200

// WriteCSV writes a header and one row per event with the columns of
// Header: time is RFC 3339 in UTC, round and phase are empty for events
// outside a round, summary is a short readable line (the message, the
// proposal, the ballot, the winner...), and data is the payload's JSON.
//
// A cell that a spreadsheet would run as a formula (starting with = + - @,
// tab or carriage return) is prefixed with a single quote.
func WriteCSV(w io.Writer, events []roundtable.Event, opt Options) error {
	events = prepare(events, opt)
	cw := csv.NewWriter(w)
	if err := cw.Write(Header()); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	for _, e := range events {
		row, err := record(e)
		if err != nil {
			return fmt.Errorf("export event %d of table %s: %w", e.Seq, e.Table, err)
		}
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("write csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// record returns the CSV row of e.
func record(e roundtable.Event) ([]string, error) {
	data, err := json.Marshal(e.Data)
	if err != nil {
		return nil, err
	}
	round, phase := position(e.Data)
	row := []string{e.Table, strconv.FormatUint(e.Seq, 10), e.Time.UTC().Format(time.RFC3339Nano), e.Type(),
		e.Actor, round, phase, truncate(summary(e.Data), maxSummary), string(data)}
	for i, cell := range row {
		row[i] = Defuse(cell)
	}
	return row, nil
}

// Defuse keeps spreadsheets from running a cell as a formula: a cell
// that starts with =, +, -, @, a tab or a carriage return is prefixed
// with a quote.
func Defuse(cell string) string {
	if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
		return "'" + cell
	}
	return cell
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// position returns the round and phase an event belongs to, as cells.
func position(data roundtable.Payload) (round, phase string) {
	r, p := 0, roundtable.PhaseNone
	switch d := data.(type) {
	case roundtable.PhaseOpened:
		r, p = d.Round, d.Phase
	case roundtable.PhaseClosed:
		r, p = d.Round, d.Phase
	case roundtable.PhaseExtended:
		r, p = d.Round, d.Phase
	case roundtable.ActionFailed:
		r, p = d.Round, d.Phase
	case roundtable.MessagePosted:
		r, p = d.Round, roundtable.PhaseMessage
		if d.Private {
			p = roundtable.PhasePrivate
		}
	case roundtable.SurveyAnswered:
		r, p = d.Round, roundtable.PhaseSurvey
	case roundtable.ProposalMade:
		r, p = d.Round, roundtable.PhaseProposal
	case roundtable.ProposalSkipped:
		r, p = d.Round, roundtable.PhaseProposal
	case roundtable.BallotCast:
		r, p = d.Round, roundtable.PhaseVote
	case roundtable.BallotRejected:
		r, p = d.Round, roundtable.PhaseVote
	case roundtable.DecisionMade:
		r, p = d.Round, roundtable.PhaseVote
	case roundtable.TableEnded:
		r = d.Rounds
	}
	if r > 0 {
		round = strconv.Itoa(r)
	}
	if p != roundtable.PhaseNone {
		phase = p.String()
	}
	return round, phase
}

// summary is the event in a few words.
func summary(data roundtable.Payload) string {
	switch d := data.(type) {
	case roundtable.TableCreated:
		c := d.Config
		return fmt.Sprintf("%s: %s by %s, %d rounds, %d participants", c.Title, c.Task.Kind, c.Rule, c.Rounds, len(c.Participants))
	case roundtable.ParticipantJoined:
		return fmt.Sprintf("%s joined (%s)", d.Participant.Name, d.Participant.Kind)
	case roundtable.ParticipantLeft:
		return d.ID + " left"
	case roundtable.PhaseOpened:
		return opened(d)
	case roundtable.MessagePosted:
		return d.Text
	case roundtable.ProposalMade:
		return d.Proposal.Text
	case roundtable.ProposalSkipped:
		return "skipped"
	case roundtable.SurveyAnswered:
		return fmt.Sprint(d.Values)
	case roundtable.BallotCast:
		if d.Ballot.Reason != "" {
			return ballot(d.Ballot) + " (why: " + d.Ballot.Reason + ")"
		}
		return ballot(d.Ballot)
	case roundtable.BallotRejected:
		return ballot(d.Ballot) + " (rejected: " + d.Reason + ")"
	case roundtable.ActionFailed:
		return d.Kind + ": " + d.Reason
	case roundtable.PhaseClosed:
		return "closed: " + d.Reason
	case roundtable.TableStarted:
		if d.Seats > 0 {
			return fmt.Sprintf("started (%s), sized for %d seats", d.Reason, d.Seats)
		}
		return "started (" + d.Reason + ")"
	case roundtable.PhaseExtended:
		return fmt.Sprintf("extended by %s to %s", d.By, d.Deadline.UTC().Format(time.RFC3339))
	case roundtable.DecisionMade:
		return decision(d)
	case roundtable.TableEnded:
		return ended(d)
	}
	return ""
}

func opened(d roundtable.PhaseOpened) string {
	s := fmt.Sprintf("round %d %s phase", d.Round, d.Phase)
	if len(d.Candidates) == 0 {
		return s
	}
	ids := make([]string, len(d.Candidates))
	for i, c := range d.Candidates {
		ids[i] = c.ID
	}
	return s + "; candidates " + strings.Join(ids, ", ")
}

// ballot writes what a ballot says, whichever rule it is for.
func ballot(b vote.Ballot) string {
	switch {
	case b.Abstain:
		return "abstain"
	case b.Choice != "":
		return b.Choice
	case len(b.Ranking) > 0:
		return strings.Join(b.Ranking, " > ")
	case len(b.Scores) > 0:
		return pairs(b.Scores)
	case len(b.Points) > 0:
		return pairs(b.Points)
	case len(b.Approve) > 0:
		return "approve " + strings.Join(b.Approve, ", ")
	}
	return "approve nobody"
}

func pairs(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

func decision(d roundtable.DecisionMade) string {
	if !d.Accepted || d.Decision == nil {
		if d.Tally.Reason != "" {
			return "no winner: " + d.Tally.Reason
		}
		return "no winner"
	}
	return fmt.Sprintf("winner %s: %s", d.Decision.ID, d.Decision.Proposal.Text)
}

func ended(d roundtable.TableEnded) string {
	if d.Output == nil {
		return fmt.Sprintf("ended (%s) with no output", d.Reason)
	}
	return fmt.Sprintf("ended (%s): %s", d.Reason, d.Output.Proposal.Text)
}
