package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// The memory policies of Options.Memory.
const (
	MemoryFull       = "full"       // every earlier round verbatim
	MemoryWindow     = "window"     // the last Window rounds verbatim, one line per older round
	MemoryReflective = "reflective" // the model's own notes, rewritten once per round, and the last round verbatim
)

// DefaultWindow is the number of rounds MemoryWindow keeps verbatim. With
// the paper's message lengths, two verbatim rounds and one short line per
// older round cost under 40% of full history per turn at round 10
// (BenchmarkWindowMemory); three would cost over half.
const DefaultWindow = 2

// historyText is the history part of a prompt under the agent's memory
// policy; u collects the usage of a reflective memory update.
func (a *Agent) historyText(ctx context.Context, v roundtable.View, u *roundtable.Usage) string {
	switch briefingOf(v).History {
	case roundtable.HistoryExperience:
		return a.experienceHistory(ctx, v, u)
	case roundtable.HistoryChat:
		return chatroomHistory(v, a.opt.ContextChars)
	}
	var b strings.Builder
	switch a.opt.Memory {
	case MemoryWindow:
		b.WriteString(windowText(v, a.opt.Window))
	case MemoryReflective:
		b.WriteString(a.reflectiveText(ctx, v, u))
	default:
		for _, r := range v.History {
			b.WriteString(roundText(v, r))
		}
	}
	b.WriteString(currentText(v))
	if b.Len() == 0 {
		return "## What happened so far\nNothing yet: this is the first round.\n"
	}
	return "## What happened so far\n" + b.String()
}

// windowText keeps the last k rounds verbatim and compresses the older ones
// into one deterministic line each (no model call, so it is reproducible).
func windowText(v roundtable.View, k int) string {
	var b strings.Builder
	cut := max(len(v.History)-k, 0)
	if cut > 0 {
		b.WriteString("Earlier rounds, in short:\n")
		for _, r := range v.History[:cut] {
			b.WriteString(roundLine(v, r) + "\n")
		}
	}
	for _, r := range v.History[cut:] {
		b.WriteString(roundText(v, r))
	}
	return b.String()
}

// notebook keeps the reflective notes of every participant the Agent plays,
// keyed by table and participant. It is safe for concurrent use; a page is
// locked while its notes are being rewritten, so one participant's update
// runs once.
type notebook struct {
	mu    sync.Mutex
	pages map[string]*page
}

type page struct {
	mu   sync.Mutex
	upTo int // the last round the notes cover
	text string
}

func (n *notebook) page(table, participant string) *page {
	n.mu.Lock()
	defer n.mu.Unlock()
	key := table + "\x00" + participant
	if n.pages[key] == nil {
		n.pages[key] = &page{}
	}
	return n.pages[key]
}

func (n *notebook) forget(table string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for k := range n.pages {
		if strings.HasPrefix(k, table+"\x00") {
			delete(n.pages, k)
		}
	}
}

// reflectiveText brings the participant's notes up to the last finished
// round and shows them with that round verbatim.
func (a *Agent) reflectiveText(ctx context.Context, v roundtable.View, u *roundtable.Usage) string {
	if len(v.History) == 0 {
		return ""
	}
	p := a.notes.page(v.Table, v.Self.ID)
	p.mu.Lock()
	defer p.mu.Unlock()
	notes := p.text
	if last := v.History[len(v.History)-1].Round; p.upTo < last {
		since := roundsAfter(v.History, p.upTo)
		lines := make([]string, len(since))
		for i, r := range since {
			lines[i] = roundLine(v, r)
		}
		notes = a.reflect(ctx, v, p, u, reflectPrompt(v, p.text, since), lines)
		if ctx.Err() == nil { // out of time, the fallback serves once and the next phase tries again
			p.text, p.upTo = notes, last
		}
	}
	return "Your notes on the rounds so far:\n" + notes + "\n" + roundText(v, v.History[len(v.History)-1])
}

// roundsAfter returns the rounds of history after round upTo.
func roundsAfter(history []roundtable.RoundRecord, upTo int) []roundtable.RoundRecord {
	var since []roundtable.RoundRecord
	for _, r := range history {
		if r.Round > upTo {
			since = append(since, r)
		}
	}
	return since
}

// reflect asks the model to rewrite the notes with what they do not cover
// yet (prompt). If the model fails, the fallback lines (deterministic
// one-line summaries of the same) are appended instead, so the table
// goes on.
func (a *Agent) reflect(ctx context.Context, v roundtable.View, p *page, u *roundtable.Usage, prompt string, fallback []string) string {
	s := memorySchema()
	mode := a.outputMode()
	req := a.request(v, roundtable.PhaseNone, 0, a.messages(prompt, mode, v, s), s, mode)
	resp, err := a.complete(ctx, req, u)
	if err == nil && resp.Finish != "" && resp.Finish != FinishStop {
		err = fmt.Errorf("the model stopped early (%s)", resp.Finish)
	}
	if err == nil {
		var notes string
		if notes, err = parseMemory(resp.Content); err == nil {
			return notes
		}
	}
	a.log.Warn("memory update failed; using short summaries", "table", v.Table, "participant", v.Self.ID, "round", v.Round, "err", err)
	var b strings.Builder
	b.WriteString(p.text)
	for _, l := range fallback {
		b.WriteString("\n" + l)
	}
	return strings.TrimSpace(b.String())
}

func reflectPrompt(v roundtable.View, notes string, since []roundtable.RoundRecord) string {
	var b strings.Builder
	b.WriteString("## Your notes so far\n")
	if notes == "" {
		notes = "(none yet)"
	}
	b.WriteString(notes + "\n\n## Rounds since your notes\n")
	for _, r := range since {
		b.WriteString(roundText(v, r))
	}
	fmt.Fprintf(&b, "\n## Rewrite your notes\nRound %d of %d is about to start. Rewrite your notes so that they hold everything you need for the rest of the table: "+
		"what each participant wants and knows, what was proposed and decided, where you agree and disagree, and your plan. "+
		`Keep them under 200 words and put them in "memory".`+"\n", v.Round, v.Rounds)
	return b.String()
}
