package bot

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// The words a participant reads say what happened in plain words: no
// rule's internals ("deferred", "1.5 of 3 votes"), no "agree with the
// complement", plural nouns that agree with their numbers.
func TestWordsArePlain(t *testing.T) {
	s := &roundtable.State{}
	for _, c := range []struct {
		tally     roundtable.Tally
		want, not string
	}{
		{roundtable.Tally{Rule: vote.Plurality, Tied: []string{"A", "B"}, Counted: 2, Reason: "tie between A, B deferred"},
			"A and B tied, and a tie decides nothing at this table", "deferred"},
		{roundtable.Tally{Rule: vote.Majority, Counted: 3, Participants: 3, Reason: "no candidate has more than 1.5 of 3 votes"},
			"no proposal was chosen by more than half of the 3 voters at the table", "1.5"},
		{roundtable.Tally{Rule: vote.Unanimous, Counted: 1, Participants: 1, Reason: "not unanimous"},
			"no proposal was chosen by all 1 voter at the table", "voters"},
		{roundtable.Tally{Rule: vote.Plurality, Reason: "no candidates"}, "nothing was proposed yet", ""},
	} {
		got := noWinnerWords(s, &c.tally)
		if !strings.Contains(got, c.want) || (c.not != "" && strings.Contains(got, c.not)) {
			t.Errorf("tally %+v reads %q; want %q without %q", c.tally, got, c.want, c.not)
		}
	}
	if got := plural(1, "row", "rows") + ", " + plural(3, "round", "rounds"); got != "1 row, 3 rounds" {
		t.Errorf("plural: %q", got)
	}
	for label, want := range map[string]string{
		"strongly agree with the complement": "strongly disagree",
		"slightly agree with the complement": "slightly disagree",
		"strongly agree with the statement":  "strongly agree",
		"neutral":                            "neutral",
	} {
		if got := levelWords(label); got != want {
			t.Errorf("level %q reads %q, want %q", label, got, want)
		}
	}
}

// Someone who joins a chatroom or a panel, where nobody proposes or
// votes, is not told to propose and vote; someone who joins a table that
// votes is; and a waiting table says how it starts.
func TestJoinedReplyFitsTheProtocol(t *testing.T) {
	q := protocol.Settings{Question: "Pineapple belongs on pizza.", Items: []string{"Ann"}}
	for _, c := range []struct {
		pr    *roundtable.Protocol
		votes bool
	}{
		{chatroom.Preset(q), false},
		{panel.Preset(q), false},
		{nil, true},
	} {
		s := &roundtable.State{Status: roundtable.StatusCreated, Config: roundtable.Config{Protocol: c.pr}}
		got := joinedReply(s)
		if strings.Contains(got, "propose") != c.votes || strings.Contains(got, "/roundtable vote") != c.votes {
			t.Errorf("%s: %q", c.pr, got)
		}
		if !strings.Contains(got, "The table has not started yet. It starts when the organiser presses **Start**") {
			t.Errorf("%s: the waiting table's reply does not say how it starts: %q", c.pr, got)
		}
	}
}
