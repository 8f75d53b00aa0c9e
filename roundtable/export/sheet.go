package export

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// SheetHeader is the first row of a sheet (WriteSheet).
func SheetHeader() []string {
	return []string{"table", "round", "row", "who", "candidate", "proposal", "ballot", "won", "reason", "answer"}
}

// secretVoter stands in the who column for the voter of a secret ballot.
const secretVoter = "(secret)"

// WriteSheet writes a spreadsheet of the tables in events: a header, then
// per round one row per proposal (row "proposal": who made it, its
// candidate letter in the vote, its text, whether it won) and one row per
// counted ballot (row "ballot": the voter, the ballot as the vote command
// reads it, and for a single choice the chosen proposal's text). People
// are named or pseudonymised as opt says; voters of secret ballots are
// "(secret)" (or a voter pseudonym in a research export, see
// roundtable.SecretBallots). A survey answer the export holds (the
// organiser's, or the author's own) is one row per item (row "survey":
// who answered, the item in the candidate column, the value with its
// level's name in the answer column, the reason). Formula-like cells are
// defused as in WriteCSV.
func WriteSheet(w io.Writer, events []roundtable.Event, opt Options) error {
	events = prepare(events, opt)
	cw := csv.NewWriter(w)
	if err := cw.Write(SheetHeader()); err != nil {
		return fmt.Errorf("write sheet: %w", err)
	}
	for _, run := range tableRuns(events) {
		st, err := roundtable.Replay(run)
		if err != nil {
			return fmt.Errorf("sheet of table %s: %w", run[0].Table, err)
		}
		for _, row := range sheetRows(st) {
			for i := range row {
				row[i] = Defuse(row[i])
			}
			if err := cw.Write(row); err != nil {
				return fmt.Errorf("write sheet: %w", err)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write sheet: %w", err)
	}
	return nil
}

// sheetRows returns the proposal and ballot rows of one table.
func sheetRows(st *roundtable.State) [][]string {
	names := map[string]string{}
	for _, p := range append(append([]roundtable.Participant(nil), st.Config.Participants...), st.Participants...) {
		names[p.ID] = p.Name
	}
	who := func(id string) string {
		switch {
		case id == "":
			return secretVoter
		case names[id] != "":
			return names[id]
		}
		return id
	}
	sc := surveyScale(st.Config.Protocol)
	var rows [][]string
	for _, r := range st.Rounds {
		round := strconv.Itoa(r.Round)
		winner := ""
		if r.Tally != nil {
			winner = r.Tally.Winner
		}
		for _, p := range r.Proposals {
			id := candidateOf(r.Candidates, p.By, p.Proposal)
			rows = append(rows, []string{st.ID, round, "proposal", who(p.By), id, p.Proposal.Text, "", yes(id != "" && id == winner), "", ""})
		}
		if r.Tally != nil {
			for _, b := range r.Tally.Ballots {
				rows = append(rows, []string{st.ID, round, "ballot", who(b.Voter), b.Choice, chosenText(r.Candidates, b), b.String(), yes(b.Choice != "" && b.Choice == winner), b.Reason, ""})
			}
		}
		for _, a := range r.Surveys {
			for i, v := range a.Values {
				rows = append(rows, []string{st.ID, round, "survey", who(a.By), itemName(sc, i), "", "", "", a.Reason, answerText(sc, v)})
			}
		}
	}
	return rows
}

// surveyScale is the first scale the table's schedule asks, or nil.
func surveyScale(pr *roundtable.Protocol) *roundtable.Scale {
	if pr == nil {
		return nil
	}
	for st := range pr.Steps() {
		if st.Scale != nil {
			return st.Scale
		}
	}
	return nil
}

// itemName is item i of scale sc, or its question for a one-value scale.
func itemName(sc *roundtable.Scale, i int) string {
	switch {
	case sc == nil:
		return ""
	case i < len(sc.Items):
		return sc.Items[i]
	}
	return sc.Question
}

// answerText is value v, followed by its level's name on a labelled scale.
func answerText(sc *roundtable.Scale, v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if sc == nil || sc.Step <= 0 || len(sc.Labels) == 0 {
		return s
	}
	if i := int(math.Round((v - sc.Min) / sc.Step)); i >= 0 && i < len(sc.Labels) {
		s += " (" + sc.Labels[i] + ")"
	}
	return s
}

// candidateOf returns the letter of the candidate that carries proposal p
// of participant by, or "" when it did not reach the vote (a later
// proposal replaced it).
func candidateOf(cs []roundtable.Candidate, by string, p roundtable.Proposal) string {
	for _, c := range cs {
		if c.Proposal.Text != p.Text {
			continue
		}
		for _, id := range c.Proposers {
			if id == by {
				return c.ID
			}
		}
	}
	return ""
}

func chosenText(cs []roundtable.Candidate, b vote.Ballot) string {
	for _, c := range cs {
		if b.Choice != "" && c.ID == b.Choice {
			return c.Proposal.Text
		}
	}
	return ""
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return ""
}
