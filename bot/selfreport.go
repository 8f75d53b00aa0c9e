package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/audit"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
)

// verbSelf prefixes the self-report buttons' verbs: "self2" .. "self-2".
const verbSelf = "self"

// Decision: the survey phase (PROTOCOL.md section 6) is not in the
// domain yet, so a self-report is a one-click button under the round's
// result, recorded privately as an annotation (instrument "self-report")
// beside the log, never as an event: nobody but the organiser's export
// sees it, pseudonymised there like the rest.

// selfReportPrompt posts, under a round's result, the self-report
// buttons of an audited table that asks for self-reports and seats people.
func (p *planner) selfReportPrompt(round int) {
	s := p.state
	if s.Config.Audit == nil || !s.Config.Audit.SelfReport || !seatsPeople(s) {
		return
	}
	p.post(fmt.Sprintf("r%d/self-report", round), func() Message { return selfReportMessage(s.ID, round, s.Config.Audit.Statement) })
}

func seatsPeople(s *roundtable.State) bool {
	for _, p := range s.Participants {
		if p.Kind == roundtable.Human {
			return true
		}
	}
	return false
}

// selfReportMessage asks where one stands: five buttons, strongest
// agreement with the statement first.
func selfReportMessage(table string, round int, statement string) Message {
	var controls []Control
	for l := stance.StronglyStatement; l >= stance.StronglyComplement; l-- {
		controls = append(controls, Control{ID: withVerb(ref{Table: table, Round: round}, verbSelf+strconv.Itoa(int(l))), Kind: Button, Label: clip(l.Label(), 80)})
	}
	text := fmt.Sprintf("**Round %d: where do you stand now?** One click, private: only the organiser's export sees it.\nStatement: %s", round, statement)
	return Message{Text: text, Controls: controls}
}

// selfLevel reads a self-report button's verb.
func selfLevel(verb string) (stance.Level, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(verb, verbSelf))
	if !strings.HasPrefix(verb, verbSelf) || err != nil || n < -2 || n > 2 {
		return 0, false
	}
	return stance.Level(n), true
}

// selfReport records a person's self-report of round; a later click
// replaces it.
func (s *Service) selfReport(ctx context.Context, ev *Event, lt *live, round int, l stance.Level) (*Reply, error) {
	if s.audit.cfg.Store == nil {
		return nil, roundtable.Errorf(roundtable.Invalid, "self-reports are not kept on this server (no audit store is configured)")
	}
	who := participantID(ev.Platform, ev.User.ID)
	p, seated := lt.table.Snapshot().Participant(who)
	if !seated || p.Kind != roundtable.Human {
		return nil, roundtable.Errorf(roundtable.Forbidden, "only people seated at this table report their stance; join it first")
	}
	seq, err := s.roundSeq(ctx, lt.table.ID(), round)
	if err != nil {
		return nil, err
	}
	res, err := json.Marshal(audit.SelfReport{Participant: who, Round: round, Level: l, Label: l.Label()})
	if err != nil {
		return nil, fmt.Errorf("self-report: %w", err)
	}
	a := roundtable.Annotation{Table: lt.table.ID(), Seq: seq, Instrument: audit.SelfReportInstrument,
		Model: audit.SelfReportModel(who), Result: res, Time: s.deps.Clock.Now()}
	if err := s.audit.cfg.Store.PutAnnotation(ctx, a); err != nil {
		return nil, fmt.Errorf("self-report: %w", err)
	}
	return ephemeral(fmt.Sprintf("Recorded privately for round %d: %s. Click again to change it.", round, l.Label())), nil
}

// roundSeq is the seq of round's decision, which self-reports annotate.
func (s *Service) roundSeq(ctx context.Context, table string, round int) (uint64, error) {
	evs, err := s.deps.Store.Load(ctx, table)
	if err != nil {
		return 0, err
	}
	for _, e := range evs {
		if d, ok := e.Data.(roundtable.DecisionMade); ok && d.Round == round {
			return e.Seq, nil
		}
	}
	return 0, roundtable.Errorf(roundtable.Conflict, "round %d has not been decided yet", round)
}
