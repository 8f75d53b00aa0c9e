package audit

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
	"github.com/roundtable-ai/roundtable/roundtable/export"
)

// SelfReportInstrument names the annotations that held people's private
// self-reports in logs written before self-reports became survey answers
// (SurveyAnswered events): Model is SelfReportModel(participant), so
// each participant has one report per round, and Result is a SelfReport.
// Build still reads them, so old audits analyse as before.
const SelfReportInstrument = "self-report"

// SelfReportModel is the Model of participant's self-report annotations.
func SelfReportModel(participant string) string { return export.SelfReportPrefix + participant }

// Visible returns the annotations of a table that viewer v may be shown:
// the one rule every view and export of an audit applies (the web
// dashboard, the bot's export, the operator's CLI). Measurements of
// messages (sentiment, stance, ...) go with the messages, which the audit
// reads once they are revealed. Self-report annotations, the private
// survey answers of logs written before self-reports were survey answers,
// are their author's, and the organiser's export's (v.Organiser), like
// the survey answers of the log. The input is not modified.
func Visible(anns []roundtable.Annotation, v roundtable.Viewer) []roundtable.Annotation {
	if v.Organiser {
		return anns
	}
	return slices.DeleteFunc(slices.Clone(anns), func(a roundtable.Annotation) bool {
		return a.Instrument == SelfReportInstrument && (v.Participant == "" || a.Model != SelfReportModel(v.Participant))
	})
}

// SelfReport is a participant's own account of its stance at the end of a
// round, on the five stance levels.
type SelfReport struct {
	Participant string       `json:"participant"`
	Round       int          `json:"round"`
	Level       stance.Level `json:"level"`
	Label       string       `json:"label"`
}

// Message is one message of a participant with what the audit read of it.
type Message struct {
	Seq   uint64 `json:"seq"`
	Round int    `json:"round"`
	// Score is the opinion sentiment S_O; S and Delta are the
	// participant's sentiment after the message and its change (NaN for
	// the first). HasScore is false when the message has no sentiment.
	Score    float64 `json:"score"`
	S        float64 `json:"s"`
	Delta    float64 `json:"delta"`
	HasScore bool    `json:"has_score"`
	// Stance is the classified level when HasStance (an opinion was
	// present); Unwarranted marks a change without warrant (anyone's:
	// people's and bots').
	Stance      stance.Level `json:"stance"`
	HasStance   bool         `json:"has_stance"`
	Classified  bool         `json:"classified"` // a stance result exists, opinion or not
	Unwarranted bool         `json:"unwarranted"`
	// Missing lists why instruments gave no result ("stance: model down").
	Missing []string `json:"missing,omitempty"`
}

// Participant is one seat's audit.
type Participant struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Bot  bool   `json:"bot"`
	// Assigned is the stance the seat was given (Participant.Stance read
	// as a level), or, when it has none, its first classified stance.
	Assigned    stance.Level `json:"assigned"`
	HasAssigned bool         `json:"has_assigned"`
	Messages    []Message    `json:"messages"`
	Changes     int          `json:"changes"` // messages with an unwarranted change
	// Tally counts the participant's classified messages, its changes by
	// direction and the level-to-level matrix.
	Tally       stance.Changes `json:"tally"`
	SelfReports []SelfReport   `json:"self_reports,omitempty"`
}

// Table is one table's audit.
type Table struct {
	ID           string         `json:"id"`
	Title        string         `json:"title,omitempty"` // the table's configured title, if any
	Participants []*Participant `json:"participants"`
	Missing      int            `json:"missing"` // annotations without a result
}

// Label names the table for people: its title, or "Table ID" without one.
func (t *Table) Label() string {
	if t.Title != "" {
		return t.Title
	}
	return "Table " + t.ID
}

// Changed reports whether anyone at the table changed its stance without
// warrant.
func (t *Table) Changed() bool {
	for _, p := range t.Participants {
		if p.Changes > 0 {
			return true
		}
	}
	return false
}

// Participant returns the seat with the given ID, or nil.
func (t *Table) Participant(id string) *Participant {
	for _, p := range t.Participants {
		if p.ID == id {
			return p
		}
	}
	return nil
}

// ParseAssigned reads an assigned stance: a level from -2 to 2, alone or
// leading the persona's words ("2: You are sure homework should go."), or
// one of the five level labels. ok is false for anything else (free text).
func ParseAssigned(s string) (stance.Level, bool) {
	s = strings.TrimSpace(s)
	lead, _, _ := strings.Cut(s, ":")
	if n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(lead), "+")); err == nil && n >= -2 && n <= 2 {
		return stance.Level(n), true
	}
	if l, err := stance.ParseLevel(strings.ToLower(s)); err == nil {
		return l, true
	}
	return 0, false
}

// Build reads a table's audit from its log and annotations. Sentiment
// trajectories follow the non-Bayesian update with alpha (0 means the
// paper's default). A message with several results of one instrument
// (several models) takes the first model's in name order.
func Build(evs []roundtable.Event, anns []roundtable.Annotation, alpha float64) (*Table, error) {
	t := &Table{}
	byID := map[string]*Participant{}
	seat := func(p roundtable.Participant) {
		if byID[p.ID] != nil {
			return
		}
		ap := &Participant{ID: p.ID, Name: p.Name, Bot: p.Kind == roundtable.Bot}
		ap.Assigned, ap.HasAssigned = ParseAssigned(p.Stance)
		byID[p.ID] = ap
		t.Participants = append(t.Participants, ap)
	}
	index := map[uint64]*Message{}
	var surveys surveyReader
	for _, e := range evs {
		switch d := e.Data.(type) {
		case roundtable.TableCreated:
			t.ID, t.Title = e.Table, d.Config.Title
			for _, p := range d.Config.Participants {
				seat(p)
			}
		case roundtable.ParticipantJoined:
			seat(d.Participant)
		case roundtable.MessagePosted:
			p := byID[e.Actor]
			if p == nil {
				continue
			}
			p.Messages = append(p.Messages, Message{Seq: e.Seq, Round: d.Round, Delta: math.NaN(), S: math.NaN(), Score: math.NaN()})
		}
		if r, ok := surveys.read(e); ok && byID[r.Participant] != nil {
			byID[r.Participant].addSelfReport(r)
		}
	}
	for _, p := range t.Participants {
		for i := range p.Messages {
			index[p.Messages[i].Seq] = &p.Messages[i]
		}
	}
	if err := t.read(anns, index, byID); err != nil {
		return nil, err
	}
	t.fold(alpha)
	return t, nil
}

// read applies the annotations to the messages they annotate.
func (t *Table) read(anns []roundtable.Annotation, index map[uint64]*Message, byID map[string]*Participant) error {
	sorted := append([]roundtable.Annotation(nil), anns...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Model < sorted[j].Model })
	for _, a := range sorted {
		if a.Instrument == SelfReportInstrument {
			if err := t.selfReport(a, byID); err != nil {
				return err
			}
			continue
		}
		m := index[a.Seq]
		if m == nil {
			continue
		}
		if a.Missing != "" {
			t.Missing++
			m.Missing = append(m.Missing, a.Instrument+": "+a.Missing)
			continue
		}
		if err := m.apply(a); err != nil {
			return fmt.Errorf("audit: table %s message %d: %w", a.Table, a.Seq, err)
		}
	}
	return nil
}

func (m *Message) apply(a roundtable.Annotation) error {
	switch a.Instrument {
	case sentiment.Instrument:
		if m.HasScore {
			return nil
		}
		var r struct {
			Score float64 `json:"score"`
		}
		if err := json.Unmarshal(a.Result, &r); err != nil {
			return fmt.Errorf("sentiment result: %w", err)
		}
		m.Score, m.HasScore = r.Score, true
	case stance.Instrument:
		if m.Classified {
			return nil
		}
		var r struct {
			Presence bool         `json:"presence"`
			Level    stance.Level `json:"level"`
		}
		if err := json.Unmarshal(a.Result, &r); err != nil {
			return fmt.Errorf("stance result: %w", err)
		}
		m.Stance, m.HasStance, m.Classified = r.Level, r.Presence, true
	}
	return nil
}

func (t *Table) selfReport(a roundtable.Annotation, byID map[string]*Participant) error {
	var r SelfReport
	if a.Missing != "" {
		return nil
	}
	if err := json.Unmarshal(a.Result, &r); err != nil {
		return fmt.Errorf("audit: table %s: self-report: %w", a.Table, err)
	}
	if p := byID[r.Participant]; p != nil {
		p.addSelfReport(r)
	}
	return nil
}

// addSelfReport keeps r in round order; a round has one report per
// participant, the survey event's over an old annotation's.
func (p *Participant) addSelfReport(r SelfReport) {
	if slices.ContainsFunc(p.SelfReports, func(o SelfReport) bool { return o.Round == r.Round }) {
		return
	}
	p.SelfReports = append(p.SelfReports, r)
	sort.SliceStable(p.SelfReports, func(i, j int) bool { return p.SelfReports[i].Round < p.SelfReports[j].Round })
}

// fold computes the sentiment trajectories and the unwarranted changes.
func (t *Table) fold(alpha float64) {
	for _, p := range t.Participants {
		tr := sentiment.Trajectory{Alpha: alpha}
		for i := range p.Messages {
			m := &p.Messages[i]
			if m.HasScore {
				pt := tr.Observe(p.ID, m.Score)
				m.S, m.Delta = pt.S, pt.Delta
			}
			if !m.Classified {
				continue
			}
			if m.HasStance && !p.HasAssigned {
				p.Assigned, p.HasAssigned = m.Stance, true
			}
			if p.Tally.Add(p.Assigned, m.Stance, m.HasStance) != 0 {
				m.Unwarranted = true
				p.Changes++
			}
		}
	}
}
