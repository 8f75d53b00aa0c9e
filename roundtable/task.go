package roundtable

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Task is what a table decides: it states the problem and checks proposals.
// Implementations must be safe for concurrent use; they hold no per-table
// mutable state beyond what their constructor computed.
type Task interface {
	// Kind names the task ("text", "exchange", ...).
	Kind() string
	// Brief is the problem statement every participant sees.
	Brief() string
	// Normalize validates a proposal and returns it in canonical form. The
	// error, an *Error with code Invalid, tells the proposer what is wrong.
	Normalize(p Proposal) (Proposal, error)
	// Key is the identity used to merge identical candidates: two proposals
	// with the same key are the same candidate.
	Key(p Proposal) string
}

// PrivateBriefer is implemented by tasks that give each participant private
// information (its own utility, its own data table).
type PrivateBriefer interface {
	// PrivateBrief is what only participant i (in table order) is told.
	PrivateBrief(i int) string
}

// Welfare is implemented by tasks that can tell how good a proposal is
// for the whole table (the exchange economy): the charts of a table's
// decisions ask the task through it rather than knowing its internals.
type Welfare interface {
	// Welfare returns U/U_max of proposal p: the total utility it gives
	// the table over the largest possible, in [0, 1] up to rounding; false
	// when p is not one the task can score.
	Welfare(p Proposal) (float64, bool)
}

// MaxTextLen bounds messages and free-text proposals, in bytes.
const MaxTextLen = 8000

// TextTask is the free-text task: the proposal is a sentence or paragraph
// answering a question ("what should the team build next?").
type TextTask struct {
	Topic string
}

// Kind implements Task.
func (TextTask) Kind() string { return "text" }

// Brief implements Task.
func (t TextTask) Brief() string {
	return "Decide together: " + t.Topic + "\nA proposal is a short text answer; the group's output is the accepted proposal."
}

// BriefOf is what everyone at a table of task and cfg is told of the
// task: task.Brief, except at a free-text table whose schedule never
// votes (a chatroom, a panel, dyads), where nothing is proposed or decided.
//
// At a free-text table whose survey rates items (a live panel), the brief
// lists the items, each with its document (the task parameter
// DocParam+item), so that everyone reads them before they speak.
func BriefOf(task Task, cfg Config) string {
	t, ok := task.(TextTask)
	if !ok || cfg.Protocol == nil || cfg.Protocol.Plays(PhaseVote) {
		return task.Brief()
	}
	out := "The question: " + t.Topic + "\nNobody proposes or votes at this table: say where you stand and why, and answer the others."
	if !cfg.Protocol.Plays(PhaseMessage) && !cfg.Protocol.Plays(PhasePrivate) { // a questionnaire: nobody writes
		out = "The question: " + t.Topic + "\nNobody writes, proposes or votes at this table: answer each survey with where you stand."
	}
	if items := cfg.Protocol.Items(); len(items) > 0 {
		out += itemsBrief(items, cfg.Task.Params)
	}
	return out
}

// DocParam is the prefix of the task parameters that hold a panel's
// items' documents: "doc/ITEM" is ITEM's document.
const DocParam = "doc/"

// itemsBrief lists the items to judge, each with its document.
func itemsBrief(items []string, params map[string]string) string {
	var b strings.Builder
	b.WriteString("\n\nThe items to judge: " + strings.Join(items, ", ") + ".")
	for _, it := range items {
		if doc := strings.TrimSpace(params[DocParam+it]); doc != "" {
			b.WriteString("\n\n**" + it + "**\n" + doc)
		}
	}
	return b.String()
}

// Normalize implements Task: the text is trimmed and must be non-empty valid
// UTF-8 of at most MaxTextLen bytes.
func (TextTask) Normalize(p Proposal) (Proposal, error) {
	text := strings.TrimSpace(p.Text)
	if err := CheckText(text); err != nil {
		return Proposal{}, err
	}
	return Proposal{Text: text}, nil
}

// Key implements Task.
func (TextTask) Key(p Proposal) string { return CanonicalText(p.Text) }

// CheckText validates user-supplied text of a message or proposal.
func CheckText(text string) error {
	switch {
	case strings.TrimSpace(text) == "":
		return Errorf(Invalid, "the text is empty")
	case !utf8.ValidString(text):
		return Errorf(Invalid, "the text is not valid UTF-8")
	case len(text) > MaxTextLen:
		return Errorf(Invalid, "the text is %d bytes long, the limit is %d", len(text), MaxTextLen)
	}
	return nil
}

// StructuredTask is implemented by tasks whose proposals carry structured
// Data (an allocation, a rating). Agents ask models for output matching the
// schema; Normalize validates the Data and writes a readable Text for it.
type StructuredTask interface {
	Task
	// ProposalSchema returns the name of the structured-output schema
	// ("proposal_exchange") and the JSON schema of a proposal's Data.
	ProposalSchema() (name string, schema json.RawMessage)
}
