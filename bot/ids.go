package bot

import (
	"fmt"
	"strconv"
	"strings"
)

// ref is what a control or form ID carries: the table, the round it was
// made for, and the verb. Encoded "rt:<table>:<round>:<verb>", well under
// the 100 bytes Discord and Slack allow.
type ref struct {
	Table string
	Round int
	Verb  string
}

// Verbs of controls and forms.
const (
	verbJoin     = "join"
	verbWrite    = "write"  // button: open the message form
	verbMessage  = "msg"    // form: a message
	verbPropose  = "prop"   // button: open the proposal form; form: a proposal
	verbSkip     = "skip"   // button: skip proposing
	verbChoose   = "choose" // select: one-vote and approval ballots
	verbBallot   = "ballot" // button: open the ballot form; form: a ballot
	verbAbstain  = "abstain"
	verbRefresh  = "status"
	verbStart    = "start" // button: the organiser opens round 1 without a person
	idSeparator  = ":"
	idPrefix     = "rt"
	maxControlID = 100
)

func (r ref) String() string {
	return strings.Join([]string{idPrefix, r.Table, strconv.Itoa(r.Round), r.Verb}, idSeparator)
}

// ControlTable returns the table a control or form ID made by the
// service belongs to, and false for an ID the service did not make.
func ControlTable(id string) (string, bool) {
	r, err := parseRef(id)
	return r.Table, err == nil
}

// Joins reports whether ev asks for a seat at a table: the join command,
// or a table's Join button.
func Joins(ev *Event) bool {
	switch ev.Kind {
	case KindCommand:
		return ev.Command == "join"
	case KindAction:
		r, err := parseRef(ev.Action)
		return err == nil && r.Verb == verbJoin
	}
	return false
}

// IsBallot reports whether f is a table's ballot form.
func (f Form) IsBallot() bool {
	r, err := parseRef(f.ID)
	return err == nil && r.Verb == verbBallot
}

// parseRef decodes a control or form ID made by ref.String.
func parseRef(id string) (ref, error) {
	parts := strings.Split(id, idSeparator)
	if len(parts) != 4 || parts[0] != idPrefix {
		return ref{}, fmt.Errorf("not a roundtable control: %q", id)
	}
	round, err := strconv.Atoi(parts[2])
	if err != nil {
		return ref{}, fmt.Errorf("control %q: bad round", id)
	}
	return ref{Table: parts[1], Round: round, Verb: parts[3]}, nil
}
