package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/audit"
)

// Whisperer is implemented by platforms that can send one user a message
// nobody else sees: an ephemeral message in channel (Slack), or a direct
// message (Discord). The organiser's per-round audit summaries go this
// way; platforms without it show the audit on their dashboard only.
type Whisperer interface {
	Whisper(ctx context.Context, channel, user string, m Message) error
}

// summarize sends the organiser the audit of round, once (across
// restarts too).
func (a *auditor) summarize(ctx context.Context, ta *tableAudit, round int) {
	lt := ta.lt
	w, ok := lt.platform.(Whisperer)
	if !ok {
		return
	}
	id := lt.table.ID()
	store := a.svc.deps.Store
	if _, sent, err := store.GetBlob(ctx, auditNS(id), summaryKey(round)); err != nil || sent {
		return
	}
	var organiser string
	lt.table.Read(func(s *roundtable.State) { organiser = s.Config.Labels[labelStarter] })
	user, ok := strings.CutPrefix(organiser, lt.platform.Name()+":")
	if !ok {
		return
	}
	text, err := a.summaryText(ctx, id, round)
	if err != nil {
		a.svc.log.Warn("audit summary", "table", id, "round", round, "err", err)
		return
	}
	if err := w.Whisper(ctx, lt.channel, user, Message{Text: text}); err != nil {
		a.svc.log.Warn("send audit summary", "table", id, "round", round, "err", err)
		return
	}
	if err := store.PutBlob(ctx, auditNS(id), summaryKey(round), []byte("sent")); err != nil {
		a.svc.log.Warn("remember audit summary", "table", id, "err", err)
	}
}

// summaryText renders the audit of round from the stored log and
// annotations.
func (a *auditor) summaryText(ctx context.Context, table string, round int) (string, error) {
	evs, err := a.svc.deps.Store.Load(ctx, table)
	if err != nil {
		return "", err
	}
	anns, err := a.cfg.Store.Annotations(ctx, table)
	if err != nil {
		return "", err
	}
	t, err := audit.Build(evs, anns, 0)
	if err != nil {
		return "", err
	}
	return renderAuditRound(t, round), nil
}

// renderAuditRound writes one round of an audit for the organiser.
func renderAuditRound(t *audit.Table, round int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Audit of round %d** (only you see this)\n", round)
	missing := 0
	for _, p := range t.Participants {
		for _, m := range p.Messages {
			if m.Round != round {
				continue
			}
			b.WriteString("- " + p.Name + ": " + auditLine(p, m) + "\n")
			missing += len(m.Missing)
		}
	}
	if missing > 0 {
		fmt.Fprintf(&b, "%d measurement(s) missing: the model was unavailable; the table went on.\n", missing)
	}
	return b.String()
}

func auditLine(p *audit.Participant, m audit.Message) string {
	var parts []string
	if m.HasScore {
		s := fmt.Sprintf("sentiment %+.2f (S %+.2f", m.Score, m.S)
		if m.Delta == m.Delta { // not NaN
			s += fmt.Sprintf(", ΔS %.2f", m.Delta)
		}
		parts = append(parts, s+")")
	}
	switch {
	case m.HasStance:
		parts = append(parts, "stance: "+m.Stance.Label())
	case m.Classified:
		parts = append(parts, "stance: no opinion expressed")
	}
	if m.Unwarranted {
		parts = append(parts, fmt.Sprintf("**unwarranted change** (assigned: %s)", p.Assigned.Label()))
	}
	for _, why := range m.Missing {
		parts = append(parts, "missing "+why)
	}
	if len(parts) == 0 {
		return "not measured"
	}
	return strings.Join(parts, "; ")
}
