package export

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// SelfReportPrefix prefixes the Model of a self-report annotation (one per
// participant: "self:<participant ID>"; audit.SelfReportModel), which a
// pseudonymised export rewrites.
const SelfReportPrefix = "self:"

// WriteAnnotations writes a table's annotations (its audit: sentiment,
// stance, self-reports; every sample kept) as JSON Lines, one
// roundtable.Annotation a line. It is the audit's sibling file of the
// event log: the log's own JSONL stays decodable as events. With
// opt.Pseudonymize, humans' IDs in self-reports become the pseudonyms the
// log export gives them (events is the table's log, for learning them).
func WriteAnnotations(w io.Writer, events []roundtable.Event, anns []roundtable.Annotation, opt Options) error {
	if opt.Pseudonymize {
		var err error
		if anns, err = PseudonymizeAnnotations(events, anns); err != nil {
			return err
		}
	}
	bw := bufio.NewWriter(w)
	for _, a := range anns {
		b, err := json.Marshal(a)
		if err != nil {
			return fmt.Errorf("export annotation %d/%s of table %s: %w", a.Seq, a.Instrument, a.Table, err)
		}
		bw.Write(b)
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write annotations: %w", err)
	}
	return nil
}

// PseudonymizeAnnotations returns anns with the humans named in
// self-reports replaced by the pseudonyms Pseudonymize gives them in
// events (the same tables' logs).
func PseudonymizeAnnotations(events []roundtable.Event, anns []roundtable.Annotation) ([]roundtable.Annotation, error) {
	p := learnAll(events)
	out := make([]roundtable.Annotation, len(anns))
	for i, a := range anns {
		var err error
		if out[i], err = p.annotation(a); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// learnAll learns the people and agents of events, in order of first
// appearance (see Pseudonymize).
func learnAll(events []roundtable.Event) pseudonyms {
	p := pseudonyms{ids: map[string]string{}, agents: map[string]bool{}}
	p.learnShuffled(events)
	for _, e := range events {
		p.learnEvent(e)
	}
	return p
}

// annotation pseudonymises the participant a self-report names (in its
// model and its result).
func (p pseudonyms) annotation(a roundtable.Annotation) (roundtable.Annotation, error) {
	who, ok := strings.CutPrefix(a.Model, SelfReportPrefix)
	if !ok || len(p.ids) == 0 {
		return a, nil
	}
	a.Model = SelfReportPrefix + p.id(who)
	if len(a.Result) == 0 {
		return a, nil
	}
	var r map[string]any
	if err := json.Unmarshal(a.Result, &r); err != nil {
		return a, fmt.Errorf("export self-report of table %s: %w", a.Table, err)
	}
	if id, ok := r["participant"].(string); ok {
		r["participant"] = p.id(id)
	}
	b, err := json.Marshal(r)
	a.Result = b
	return a, err
}
