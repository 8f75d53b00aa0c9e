package bot

import (
	"fmt"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// The words people read: the bot's replies and the phrases of its posts
// that say what a table is, who is at it, how it starts and what a vote
// decided, kept in one place so that they say the same thing the same
// way. render.go and protocol.go lay the posts out around them.

// Fixed replies.
const (
	wordsStartedAlready = "The table has already started."
	wordsAlreadySeated  = "You are already at this table."
	wordsNotStarted     = "The table has not started yet: it starts when its organiser starts it."
	wordsPrivateLabel   = "Your private message, not shown to the table" // a form label: 45 characters at most (Discord)
	wordsSizedAtStart   = "The economy is sized when the table starts: one agent, and one good, for every seat taken then. " +
		"Each person is told their own utility then (press **Status**)."
)

// plural writes n with the singular or plural noun: "1 round", "3 rounds".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// listWords joins words as people write a list: "a", "a and b", "a, b and c".
func listWords(ws []string) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return ws[0]
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

// kindOfTable names what a table is for people: "chatroom", "panel",
// "table".
func kindOfTable(s *roundtable.State) string {
	switch name := s.Config.Protocol.String(); name {
	case roundtable.ProtocolRoundTable:
		return "table"
	case "dyads":
		return "dyads table"
	default:
		return name
	}
}

// seatNames lists who sits at s, each bot with its parts: "Alice,
// Trader 1 (bot: speaks, proposes, votes)".
func seatNames(s *roundtable.State) string {
	if len(s.Participants) == 0 {
		return "nobody yet"
	}
	out := make([]string, len(s.Participants))
	for i, p := range s.Participants {
		out[i] = p.Name
		if p.Kind == roundtable.Bot {
			out[i] += " (" + botParts(s.Config, p) + ")"
		}
	}
	return strings.Join(out, ", ")
}

// botParts says what bot p does at a table configured as c: "bot:
// speaks, votes", or "bot: only watches".
func botParts(c roundtable.Config, p roundtable.Participant) string {
	parts := c.PartsAt(p)
	if len(parts) == 0 {
		return "bot: only watches"
	}
	ws := make([]string, len(parts))
	for i, x := range parts {
		ws[i] = string(x)
	}
	return "bot: " + strings.Join(ws, ", ")
}

// startWords says how a waiting table starts, for its intro.
func startWords(s *roundtable.State) string {
	st := s.Config.Start
	var out string
	switch st.Trigger() {
	case roundtable.StartFull:
		out = fmt.Sprintf("It starts by itself when its %s are taken (%d taken now), or when the organiser presses **Start**.",
			plural(st.Seats, "seat", "seats"), len(s.Participants))
	case roundtable.StartAt:
		out = "It starts by itself at " + clockWords(st.At) + ", or when the organiser presses **Start**."
	default:
		out = "It starts when the organiser presses **Start** (or types /roundtable begin): join now and wait for it."
	}
	if need := s.Config.PeopleNeeded(); need > 0 {
		out += fmt.Sprintf(" It needs at least %s at the table to start.", plural(need, "person", "people"))
	}
	return out
}

// clockWords writes a time as people read it: "14:30 UTC, 22 Nov".
func clockWords(t time.Time) string { return t.Format("15:04 MST, 2 Jan") }

// statusWords names a table's status for people.
func statusWords(st roundtable.Status) string {
	switch st {
	case roundtable.StatusCreated:
		return "waiting to start"
	case roundtable.StatusRunning:
		return "running"
	}
	return "ended"
}

// startedWords says how the table started, for the post that opens it.
func startedWords(s *roundtable.State, reason string) string {
	how := map[string]string{
		string(roundtable.StartOrganiser): "its organiser started it",
		roundtable.StartedEarly:           "its organiser started it",
		string(roundtable.StartFull):      "its seats are taken",
		string(roundtable.StartAt):        "its start time came",
	}[reason]
	if how == "" {
		how = "it started"
	}
	out := fmt.Sprintf("**The table starts**: %s. At the table: %s.", how, seatNames(s))
	if s.Config.Task.Params[roundtable.ParamSeats] != "" { // an economy sized by its seats
		rows := make([]string, len(s.Participants))
		for i, p := range s.Participants {
			rows[i] = fmt.Sprintf("agent %d is %s", i+1, p.Name)
		}
		out += " The rows of an allocation follow the seats: " + listWords(rows) + ". Press **Status** to see your own utility."
	}
	return out
}

// createdReply answers whoever created a table.
func createdReply(s *roundtable.State) string {
	if s.Status != roundtable.StatusCreated {
		return fmt.Sprintf("Table %s started in its own thread.", s.ID)
	}
	return fmt.Sprintf("Table %s is set up in its own thread, waiting for its people. %s", s.ID, startWords(s))
}

// startedReply answers whoever started the table.
func startedReply(s *roundtable.State, now time.Time) string {
	out := fmt.Sprintf("The table has started: round 1 is open (its %s phase", s.Phase)
	if !s.Deadline.IsZero() {
		out += " closes in " + s.Deadline.Sub(now).Round(time.Second).String()
	}
	return out + ")."
}

// wordsNeedPeople says why s cannot start: it needs need people and has
// have.
func wordsNeedPeople(s *roundtable.State, need, have int) string {
	seated := "nobody has joined yet"
	if have > 0 {
		seated = "only " + plural(have, "person has", "people have") + " joined"
	}
	return fmt.Sprintf("This %s needs at least %s at the table before it starts, and %s: share the table's link, then start it again.",
		kindOfTable(s), plural(need, "person", "people"), seated)
}

// wordsSeatsTaken refuses a seat at a table whose limit seats are taken.
func wordsSeatsTaken(s *roundtable.State, limit int) string {
	if s.Status == roundtable.StatusCreated {
		return fmt.Sprintf("All %d seats of this table are taken.", limit)
	}
	return fmt.Sprintf("This table started with %s, one share each, and all are taken: you can follow it, not join it.", plural(limit, "seat", "seats"))
}

// joinedReply welcomes a person to s, saying how they act there.
func joinedReply(s *roundtable.State) string {
	out := "You joined the table. "
	switch pr := s.Config.Protocol; {
	case pr.Plays(roundtable.PhaseProposal) || pr.Plays(roundtable.PhaseVote):
		out += "Act in each phase with the buttons in the thread, or with /roundtable propose and /roundtable vote."
	default:
		out += "Act with the buttons in the thread when a phase asks you to."
	}
	if s.Status == roundtable.StatusCreated {
		out += " The table has not started yet. " + startWords(s)
	}
	return out
}

// noWinnerWords says in plain words why a vote chose nothing, from its
// tally (the reason the vote package records is for the log).
func noWinnerWords(s *roundtable.State, t *roundtable.Tally) string {
	switch {
	case strings.HasPrefix(t.Reason, "no candidates"):
		return "nothing was proposed yet, so there was nothing to vote on"
	case strings.HasPrefix(t.Reason, "quorum not met"):
		return fmt.Sprintf("too few ballots: %s cast, and the table needs %d to decide", plural(t.Counted+t.Abstained, "ballot was", "ballots were"), s.Config.Quorum)
	case t.Counted == 0 && t.Abstained == 0:
		return "nobody voted"
	case t.Counted == 0:
		return "everyone who voted abstained"
	case len(t.Tied) > 1:
		return fmt.Sprintf("%s tied, and a tie decides nothing at this table", listWords(t.Tied))
	case t.Rule == vote.Majority:
		return fmt.Sprintf("no proposal was chosen by more than half of the %s at the table, as this rule needs", plural(t.Participants, "voter", "voters"))
	case t.Rule == vote.Unanimous:
		return fmt.Sprintf("no proposal was chosen by all %s at the table, as this rule needs", plural(t.Participants, "voter", "voters"))
	case t.Reason == "every ballot is exhausted":
		return "every ballot ran out of proposals still in the race"
	case strings.HasPrefix(t.Reason, "no candidate received any"):
		return "no proposal received any support"
	case t.Reason != "":
		return t.Reason
	}
	return "no proposal won"
}

// levelWords names a survey level for people: the stance scale's
// "agree with the complement" levels say "disagree", which is what they
// mean to someone answering about a statement.
func levelWords(label string) string {
	switch label {
	case "strongly agree with the complement":
		return "strongly disagree"
	case "slightly agree with the complement":
		return "slightly disagree"
	case "slightly agree with the statement":
		return "slightly agree"
	case "strongly agree with the statement":
		return "strongly agree"
	}
	return label
}
