package analysis

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// MaxLine bounds one input line of AnnotateLines.
const MaxLine = 16 << 20

// lineInput is one input line of AnnotateLines.
type lineInput struct {
	ID   json.RawMessage `json:"id"`
	Text *string         `json:"text"`
}

// AnnotateLines measures each JSON line {"id":…,"text":…} of r with in
// and writes, in order, one line per input: the id followed by the
// result's fields, or by "error". A malformed line stops it with an error
// of code roundtable.Invalid naming the line; a failed measurement is
// written with "error", counted, and reported at the end.
func AnnotateLines(ctx context.Context, in Instrument, r io.Reader, w io.Writer) error {
	_, err := AnnotateLinesGold(ctx, in, r, w, nil)
	return err
}

// AnnotateLinesGold is AnnotateLines scored against gold: a line whose id
// has gold labels also gets "gold" (them) and "correct" (whether the
// instrument's labels match, LabelsOf), and the score counts it.
func AnnotateLinesGold(ctx context.Context, in Instrument, r io.Reader, w io.Writer, gold Gold) (*GoldScore, error) {
	score := &GoldScore{}
	return score, annotateLines(ctx, in, r, w, gold, score)
}

func annotateLines(ctx context.Context, in Instrument, r io.Reader, w io.Writer, gold Gold, score *GoldScore) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	out := bufio.NewWriter(w)
	line, failed, total := 0, 0, 0
	var last error
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		inp, err := parseLine(sc.Bytes())
		if err != nil {
			return errors.Join(roundtable.Errorf(roundtable.Invalid, "line %d: %v", line, err), out.Flush())
		}
		total++
		b, m, err := measureLine(ctx, in, inp)
		if g, ok := gold[idKey(inp.ID)]; ok && err == nil {
			b = scoreLine(b, g, m, score)
		}
		if err != nil {
			if ctx.Err() != nil {
				return errors.Join(fmt.Errorf("line %d: %w", line, ctx.Err()), out.Flush())
			}
			failed, last = failed+1, fmt.Errorf("line %d: %w", line, err)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return errors.Join(roundtable.Errorf(roundtable.Invalid, "line %d: longer than %d bytes", line+1, MaxLine), out.Flush())
		}
		return errors.Join(fmt.Errorf("read stdin: %w", err), out.Flush())
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("write stdout: %w", err)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d lines have no %s (written with \"error\"); the last: %w", failed, total, in.Name(), last)
	}
	return nil
}

func parseLine(b []byte) (lineInput, error) {
	var inp lineInput
	if err := json.Unmarshal(b, &inp); err != nil {
		return inp, fmt.Errorf("not a JSON object like {\"id\":\"…\",\"text\":\"…\"}: %v", err)
	}
	if len(inp.ID) == 0 || string(inp.ID) == "null" {
		return inp, errors.New(`no "id"`)
	}
	if inp.Text == nil {
		return inp, errors.New(`no "text"`)
	}
	return inp, nil
}

// measureLine returns the output line: the id followed by the result's
// fields, or by "error".
func measureLine(ctx context.Context, in Instrument, inp lineInput) ([]byte, Measurement, error) {
	m, err := in.Measure(ctx, Item{Text: *inp.Text})
	if err != nil {
		msg, _ := json.Marshal(err.Error())
		return fmt.Appendf(nil, `{"id":%s,"error":%s}`, inp.ID, msg), m, err
	}
	res, err := json.Marshal(m.Result)
	if err != nil {
		return nil, m, fmt.Errorf("encode the result: %w", err)
	}
	return withFields(fmt.Appendf(nil, `{"id":%s`, inp.ID), res), m, nil
}

// scoreLine adds "gold" and "correct" to an output line b (an object)
// and scores it, when the result has labels.
func scoreLine(b []byte, gold []string, m Measurement, score *GoldScore) []byte {
	got, ok := LabelsOf(m.Result)
	if !ok {
		return b
	}
	extra, _ := json.Marshal(struct {
		Gold    []string `json:"gold"`
		Correct bool     `json:"correct"`
	}{gold, score.Add(gold, got)})
	return withFields(b[:len(b)-1], extra)
}

// withFields closes the object opened in b with the fields of the JSON
// object obj ("{}" adds none).
func withFields(b, obj []byte) []byte {
	if len(obj) > 2 {
		return append(append(b, ','), obj[1:]...)
	}
	return append(b, '}')
}

// LogStore is what AnnotateTables reads tables from and keeps their
// annotations in.
type LogStore interface {
	roundtable.AnnotationStore
	Load(ctx context.Context, table string) ([]roundtable.Event, error)
}

// AnnotateTables annotates the revealed messages of the tables through
// the cache, storing the results beside each table's log (a message that
// already has one is not measured again), and writes one line per
// message: {"id":"TABLE/SEQ","table","seq", then the result's fields, or
// "missing" with the reason}. Messages a model failed on are counted in
// the error, and asked again next time.
func AnnotateTables(ctx context.Context, st LogStore, tables []string, in Instrument, w io.Writer) error {
	out := bufio.NewWriter(w)
	defer out.Flush()
	cache := Cache{Store: st}
	var errs []error
	missing := 0
	for _, id := range tables {
		n, err := annotateTable(ctx, cache, st, id, in, out)
		missing += n
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			errs = append(errs, err)
		}
	}
	if missing > 0 {
		errs = append(errs, fmt.Errorf("%d messages have no %s (written with \"missing\"); run again to retry them", missing, in.Name()))
	}
	return errors.Join(errs...)
}

// annotateTable writes a table's annotations and returns how many are missing.
func annotateTable(ctx context.Context, cache Cache, st LogStore, id string, in Instrument, w io.Writer) (int, error) {
	events, err := st.Load(ctx, id)
	if err != nil {
		return 0, fmt.Errorf("table %s: %w", id, err)
	}
	// Only what has been revealed is measured (and sent to a model): the
	// sealed messages of a running table's open phase wait for its close.
	// The operator sees what the organiser's export holds (private
	// messages of closed phases too).
	events = roundtable.Visible(events, roundtable.Viewer{Researcher: true, Organiser: true})
	anns, err := cache.AnnotateLog(ctx, events, in)
	missing := 0
	for _, ann := range anns {
		if ann.Missing != "" {
			missing++
		}
		if _, werr := w.Write(annotationLine(ann)); werr != nil {
			return missing, fmt.Errorf("write stdout: %w", werr)
		}
	}
	if err != nil {
		return missing, fmt.Errorf("table %s: %w", id, err)
	}
	return missing, nil
}

func annotationLine(ann roundtable.Annotation) []byte {
	idJSON, _ := json.Marshal(fmt.Sprintf("%s/%d", ann.Table, ann.Seq))
	table, _ := json.Marshal(ann.Table)
	b := fmt.Appendf(nil, `{"id":%s,"table":%s,"seq":%d`, idJSON, table, ann.Seq)
	if ann.Missing != "" {
		reason, _ := json.Marshal(ann.Missing)
		return fmt.Appendf(b, `,"missing":%s}`+"\n", reason)
	}
	return append(withFields(b, ann.Result), '\n')
}
