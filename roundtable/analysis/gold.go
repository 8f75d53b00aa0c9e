package analysis

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/audit"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
)

// Gold are the correct labels of texts by their id, against which an
// instrument's labels are scored (the LLM negotiation paper's accuracy,
// and agreement as Cohen's kappa).
type Gold map[string][]string

// goldLine is one line of a gold file: {"id":…,"labels":[…]} or
// {"id":…,"label":"…"}.
type goldLine struct {
	ID     json.RawMessage `json:"id"`
	Label  string          `json:"label"`
	Labels []string        `json:"labels"`
}

// ReadGold reads a gold file, one JSON object a line (blank lines
// skipped): the id of an input line and its correct label or labels. name
// names r in errors; a malformed line, or an id given twice, is an error
// of code roundtable.Invalid naming the line.
func ReadGold(r io.Reader, name string) (Gold, error) {
	g := Gold{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var gl goldLine
		err := json.Unmarshal(sc.Bytes(), &gl)
		labels := gl.Labels
		if gl.Label != "" {
			labels = append(labels, gl.Label)
		}
		switch {
		case err != nil || len(gl.ID) == 0 || string(gl.ID) == "null" || len(labels) == 0:
			return nil, roundtable.Errorf(roundtable.Invalid, "%s:%d: want {\"id\":…,\"label\":\"…\"} or {\"id\":…,\"labels\":[\"…\"]} (%v)", name, line, err)
		case g[idKey(gl.ID)] != nil:
			return nil, roundtable.Errorf(roundtable.Invalid, "%s:%d: id %s is given twice", name, line, gl.ID)
		}
		g[idKey(gl.ID)] = normal(labels)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return g, nil
}

// idKey is an id as gold and input lines share it: its JSON text without
// surrounding space ("7" and "\"7\"" stay apart).
func idKey(id json.RawMessage) string { return string(bytes.TrimSpace(id)) }

// normal is a label set in a canonical order, case kept.
func normal(labels []string) []string {
	out := make([]string, 0, len(labels))
	for _, l := range labels {
		if l = strings.TrimSpace(l); l != "" && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, l) }) {
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	return out
}

// LabelsOf are the labels an instrument's result gives a text, to compare
// with gold: a stance's signal label ("no opinion" when none is present),
// the dialogue acts, a sentiment's five-level label nearest its S_O. ok is
// false for results without labels (readability, embeddings).
func LabelsOf(result any) (labels []string, ok bool) {
	switch r := result.(type) {
	case StanceResult:
		if !r.Presence {
			return []string{NoOpinion}, true
		}
		return []string{r.Label}, true
	case ActsResult:
		return normal(r.Acts), true
	case SentimentResult:
		return []string{sentiment.LabelOf(r.Score)}, true
	}
	return nil, false
}

// NoOpinion is the label of a stance result whose text expresses none.
const NoOpinion = "no opinion"

// GoldScore scores labels against gold: Items texts had a gold label and
// a result, Correct of them matched it exactly (every label of a
// multi-label answer, case ignored).
type GoldScore struct {
	Items, Correct int
	gold, got      []string
}

// Add scores one text: gold against the labels the instrument gave. It
// reports whether they match.
func (s *GoldScore) Add(gold, got []string) bool {
	g, o := strings.ToLower(strings.Join(normal(gold), "\x1f")), strings.ToLower(strings.Join(normal(got), "\x1f"))
	s.gold, s.got = append(s.gold, g), append(s.got, o)
	s.Items++
	if g == o {
		s.Correct++
	}
	return g == o
}

// Accuracy is Correct/Items (NaN for no items).
func (s *GoldScore) Accuracy() float64 {
	if s.Items == 0 {
		return math.NaN()
	}
	return float64(s.Correct) / float64(s.Items)
}

// Kappa is Cohen's kappa of the instrument against gold over the label
// sets of the texts scored (audit.Kappa; NaN for no items).
func (s *GoldScore) Kappa() float64 {
	k, err := audit.Kappa(s.gold, s.got)
	if err != nil {
		return math.NaN()
	}
	return k
}

// String says the score in words.
func (s *GoldScore) String() string {
	if s.Items == 0 {
		return "no text has both a gold label and a result"
	}
	return fmt.Sprintf("accuracy %.4f (%d of %d texts), Cohen's kappa %.4f", s.Accuracy(), s.Correct, s.Items, s.Kappa())
}
