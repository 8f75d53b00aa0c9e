package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// experienceHistory is the memory of a participant in a dyads table
// (Opinion dynamics, section 2.2): its own experiences only, the posts it
// wrote and the posts written to it with the belief it reported after
// each, not the exchanges of others. Cumulative memory (MemoryFull, and
// MemoryWindow, which a dyads table has no use for) appends every
// experience; MemoryReflective keeps only the model's summary, rewritten
// after each new experience.
func (a *Agent) experienceHistory(ctx context.Context, v roundtable.View, u *roundtable.Usage) string {
	var b strings.Builder
	if a.opt.Memory == MemoryReflective {
		b.WriteString(a.reflectedExperience(ctx, v, u))
	} else {
		for _, r := range v.History {
			b.WriteString(experienceText(v, r))
		}
	}
	if b.Len() == 0 {
		b.WriteString("None yet: this is your first turn.\n")
	}
	now := experienceText(v, v.Current)
	if now != "" {
		now = "## Now\n" + now
	}
	return "## Your experiences so far\n" + b.String() + now
}

// experienceText renders Self's experiences of one step, or "".
func experienceText(v roundtable.View, r roundtable.RoundRecord) string {
	var lines []string
	for _, m := range r.Messages {
		switch {
		case m.From == v.Self.ID:
			lines = append(lines, fmt.Sprintf("You wrote to %s: %s", audience(v, m.To), quote(m.Text)))
		case slices.Contains(m.To, v.Self.ID):
			lines = append(lines, fmt.Sprintf("%s wrote to you: %s", v.Name(m.From), quote(m.Text)))
		}
	}
	for _, s := range r.Surveys {
		if s.By != v.Self.ID {
			continue
		}
		line := fmt.Sprintf("Then you reported your belief: %s", formatValues(s.Values))
		if s.Reason != "" {
			line += ". Your thought: " + quote(s.Reason)
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return ""
	}
	return fmt.Sprintf("- Step %d: %s\n", r.Round, strings.Join(lines, " "))
}

func formatValues(vs []float64) string {
	parts := make([]string, len(vs))
	for i, x := range vs {
		parts[i] = fmt.Sprintf("%g", x)
	}
	return strings.Join(parts, ", ")
}

// reflectedExperience brings the participant's reflection up to its
// latest experience: the model summarises, in a few sentences, its
// summary so far with the experiences since. Steps without an
// experience of its own ask nothing.
func (a *Agent) reflectedExperience(ctx context.Context, v roundtable.View, u *roundtable.Usage) string {
	if len(v.History) == 0 {
		return ""
	}
	p := a.notes.page(v.Table, v.Self.ID)
	p.mu.Lock()
	defer p.mu.Unlock()
	var fresh []string
	for _, r := range roundsAfter(v.History, p.upTo) {
		if e := experienceText(v, r); e != "" {
			fresh = append(fresh, strings.TrimSpace(e))
		}
	}
	notes := p.text
	if len(fresh) > 0 {
		notes = a.reflect(ctx, v, p, u, experiencePrompt(p.text, fresh), fresh)
	}
	if ctx.Err() == nil { // out of time, the fallback serves once and the next turn tries again
		p.text, p.upTo = notes, v.History[len(v.History)-1].Round
	}
	if notes == "" {
		return ""
	}
	return "Your reflection on your experiences:\n" + notes + "\n"
}

func experiencePrompt(notes string, fresh []string) string {
	var b strings.Builder
	if notes != "" {
		b.WriteString("## Your reflection so far\n" + notes + "\n\n")
	}
	b.WriteString("## Your newest experience\n" + strings.Join(fresh, "\n") + "\n\n")
	b.WriteString("## Reflect\nReflect on this experience. ")
	if notes != "" {
		b.WriteString("Fold it into your reflection so far and ")
	}
	b.WriteString(`summarise your experience in a few sentences, in "memory". It replaces everything you remember.` + "\n")
	return b.String()
}
