package web

import (
	"context"
	"html/template"
	"strings"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// A room before and after its table starts: while it waits, who is in
// (each bot with its parts), how it starts, and the organiser's Start;
// a panel's items with their documents from the start; and what only the
// viewer is told (an exchange seat's utility). The bot decides all of it
// (bot.Tables.Opening, PrivateBrief); the room shows it.

// waitView is a waiting table as its room shows it.
type waitView struct {
	// How is its start trigger: organiser, full or at.
	How string `json:"how"`
	// Seats is the seats a full table waits for; Taken those taken.
	Seats int `json:"seats,omitempty"`
	Taken int `json:"taken"`
	// People are the people seated; Needs the fewest it needs to start.
	People int `json:"people"`
	Needs  int `json:"needs"`
	// HTML says how it starts and what it lacks, in the bot's words.
	HTML template.HTML `json:"html"`
	// MayStart is set for whoever may start it now, with the action that
	// starts it; Ready when it has the people it needs.
	MayStart    bool   `json:"may_start,omitempty"`
	StartAction string `json:"start_action,omitempty"`
	Ready       bool   `json:"ready,omitempty"`
}

// itemView is an item a panel judges, with its document.
type itemView struct {
	Title string        `json:"title"`
	HTML  template.HTML `json:"html,omitempty"` // the document, rendered from escaped text
}

// partWords are a bot's parts as the room lists them.
func partWords(parts []roundtable.Part) []string {
	out := make([]string, len(parts))
	for i, x := range parts {
		out[i] = string(x)
	}
	return out
}

// items are the items of a panel at s, each with its document.
func items(s *roundtable.State) []itemView {
	if s.Config.Protocol == nil || s.Config.Protocol.Plays(roundtable.PhaseVote) {
		return nil
	}
	var out []itemView
	for _, it := range s.Config.Protocol.Items() {
		v := itemView{Title: it}
		if doc := strings.TrimSpace(s.Config.Task.Params[roundtable.DocParam+it]); doc != "" {
			v.HTML = renderMarkdown(doc)
		}
		out = append(out, v)
	}
	return out
}

// opening adds to v what the bot tells user u of the table in a room
// beyond its state: how a waiting table starts, and what only u is told
// while it runs.
// What it cannot read it leaves out (the room still shows the state).
func (p *Platform) opening(ctx context.Context, roomID string, u bot.User, v *stateView) {
	if p.tables == nil {
		return
	}
	if v.Status == string(roundtable.StatusCreated) {
		o, err := p.tables.Opening(ctx, roomID, u)
		if err != nil {
			p.log.Warn("room opening", "room", roomID, "err", err)
			return
		}
		v.Waiting = &waitView{How: string(o.Start.Trigger()), Seats: o.Start.Seats, Taken: len(o.Seats), People: o.People, Needs: o.Needs,
			HTML: renderMarkdown(o.Waiting), MayStart: o.MayStart, StartAction: o.StartAction, Ready: o.Ready}
		return
	}
	if !v.Seated || v.Status != string(roundtable.StatusRunning) { // an ended table is no longer live: its brief would be read from the store
		return
	}
	brief, err := p.tables.PrivateBrief(ctx, roomID, u)
	if err != nil {
		p.log.Warn("room brief", "room", roomID, "err", err)
		return
	}
	if brief != "" {
		v.Brief = renderMarkdown(brief)
	}
}
