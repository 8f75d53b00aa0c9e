package web

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// formProblems checks the create form as the page shows it, before the
// bot sees it: what is wrong, in the form's own words (its labels), so
// that nobody at a browser is told about chat options or command-line
// flags. The bot checks everything again.
func formProblems(form url.Values) []string {
	var out []string
	if strings.TrimSpace(form.Get("topic")) == "" && form.Get("preset") == "" {
		out = append(out, formWords.needTopic)
	}
	if v := strings.TrimSpace(form.Get("rounds")); v != "" {
		if n, err := strconv.Atoi(v); err != nil || n < 1 || n > 100 {
			out = append(out, sprintf(formWords.badRounds, v))
		}
	}
	for _, f := range []string{"message", "proposal", "vote"} {
		if v := strings.TrimSpace(form.Get(f)); v != "" && !validDuration(v) {
			out = append(out, sprintf(formWords.badDuration, fieldLabels[f], v))
		}
	}
	return out
}

// validDuration reports whether the form's duration v reads: a plain
// number of seconds, or a duration such as 90s, 3m or 1h30m, up to a day.
func validDuration(v string) bool {
	if strings.Trim(v, "0123456789") == "" {
		v += "s"
	}
	d, err := time.ParseDuration(v)
	return err == nil && d >= 0 && d <= 24*time.Hour
}

// pageReason words a reason the bot gave for refusing a table in the
// form's terms: the start command's option names become the form's
// labels ("rounds: …" reads "Rounds: …"), and chat syntax goes.
func pageReason(reason string) string {
	if r, ok := formWords.botReasons[reason]; ok {
		return r
	}
	for _, opt := range optionOrder {
		if rest, ok := strings.CutPrefix(reason, opt+": "); ok {
			return fieldLabels[opt] + ": " + rest
		}
	}
	return reason
}

// maxItems is how many items to judge the create form offers a panel
// (the bot takes up to nine).
const maxItems = 6

// itemFields are the create form's fields of a panel's items: a title and
// a document each.
func itemFields() []string {
	var out []string
	for i := 1; i <= maxItems; i++ {
		out = append(out, fmt.Sprintf("item%d_title", i), fmt.Sprintf("item%d_document", i))
	}
	return out
}

// itemSlot is one item of the create form: its number and field names.
type itemSlot struct {
	N            int
	Title, Doc   string // the fields' names
	TitleV, DocV string // their values
}

// Items are the create form's item slots, with what was entered.
func (pg lobbyPage) Items() []itemSlot {
	out := make([]itemSlot, maxItems)
	for i := range out {
		n := i + 1
		t, d := fmt.Sprintf("item%d_title", n), fmt.Sprintf("item%d_document", n)
		out[i] = itemSlot{N: n, Title: t, Doc: d, TitleV: pg.Form[t], DocV: pg.Form[d]}
	}
	return out
}

// agentOption is a bot agent in the create form: what it does at a table
// of the chosen preset, and whether that preset offers it at all.
type agentOption struct {
	Name  string
	Parts string // "speaks, proposes, votes"
	// Offered is set when the preset's tables can seat it.
	Offered bool
	// VotesIfAsked marks the Facilitator, which votes only when asked.
	VotesIfAsked bool
}

// offer is the bots a table of preset ("" for none) offers, with their
// parts there; without the bot service, every configured agent.
func (p *Platform) offer(preset string) []bot.BotOffer {
	if p.tables != nil {
		if o, err := p.tables.Offer(preset); err == nil {
			return o
		} else if roundtable.ErrorCode(err) != roundtable.NotFound {
			p.log.Warn("the bots a preset offers", "preset", preset, "err", err)
		}
	}
	out := make([]bot.BotOffer, len(p.cfg.Agents))
	for i, a := range p.cfg.Agents {
		out[i] = bot.BotOffer{Name: a}
	}
	return out
}

// agentOptions are every configured agent as the form shows it with
// preset chosen.
func (p *Platform) agentOptions(preset string) []agentOption {
	offered := map[string]bot.BotOffer{}
	for _, o := range p.offer(preset) {
		offered[o.Name] = o
	}
	out := make([]agentOption, len(p.cfg.Agents))
	for i, a := range p.cfg.Agents {
		o, ok := offered[a]
		out[i] = agentOption{Name: a, Parts: strings.Join(partWords(o.Parts), ", "), Offered: ok, VotesIfAsked: slices.Contains(p.cfg.VotesIfAsked, a)}
	}
	return out
}

// startChoice keeps of the form's start options those of the trigger it
// chose: the seats of a table that starts when full, the time of one that
// starts at a time. The Facilitator's vote is said either way.
func startChoice(form url.Values, opts map[string]string) {
	if opts["start"] != "full" {
		delete(opts, "seats")
	}
	if opts["start"] != "at" {
		delete(opts, "start_at")
	}
	if form.Has("facilitator_set") {
		opts["facilitator_votes"] = map[bool]string{true: "yes", false: "no"}[form.Get("facilitator_votes") == "yes"]
	}
}
