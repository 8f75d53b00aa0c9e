package label

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
)

// Demonstrations picks, for each question, the K labelled examples of Set
// nearest to its text by the cosine of their embeddings (docs/protocol.md#demonstrations), and shows them as the LLM negotiation paper does: a
// generator sees each as (text, reasoning chain, labels), the chain its
// own answer to why the labels are right; a discriminator also sees its
// own explanation of why they are correct. Plain shows text and labels
// alone, asking nothing. A nil *Demonstrations picks none. The zero
// Embedder is embed.HashedTFIDF; K zero means 3. Use it by pointer.
type Demonstrations struct {
	Set      []Demo
	K        int
	Embedder embed.Embedder
	Plain    bool
	chains   chains
}

// Nearest returns the K examples nearest to text, nearest first (ties in
// Set order).
func (d *Demonstrations) Nearest(ctx context.Context, text string) ([]Demo, error) {
	if d == nil || len(d.Set) == 0 {
		return nil, nil
	}
	var e embed.Embedder = embed.HashedTFIDF{}
	if d.Embedder != nil {
		e = d.Embedder
	}
	texts := []string{text}
	for _, demo := range d.Set {
		texts = append(texts, demo.Text)
	}
	vs, err := e.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embed demonstrations with %s: %w", e.Model(), err)
	}
	type scored struct {
		i   int
		cos float64
	}
	order := make([]scored, len(d.Set))
	for i := range d.Set {
		c, err := embed.Cosine(vs[0], vs[i+1])
		if err != nil {
			return nil, err
		}
		order[i] = scored{i, c}
	}
	slices.SortStableFunc(order, func(a, b scored) int { return cmp.Compare(b.cos, a.cos) })
	k := d.K
	if k <= 0 {
		k = 3
	}
	var out []Demo
	for _, s := range order[:min(k, len(order))] {
		out = append(out, d.Set[s.i])
	}
	return out, nil
}

// attach sets q.Demos to the nearest examples, unless q has its own.
func (d *Demonstrations) attach(ctx context.Context, q *Question) error {
	if d == nil || len(q.Demos) > 0 {
		return nil
	}
	demos, err := d.Nearest(ctx, q.Text)
	q.Demos = demos
	return err
}

// ReadDemos reads labelled examples from r, one JSON object
// {"text":…,"labels":[…]} a line (blank lines skipped), of which Nearest
// shows the k nearest; name names r in errors. A malformed line is an
// error of code roundtable.Invalid naming it.
func ReadDemos(r io.Reader, name string, k int) (*Demonstrations, error) {
	d := &Demonstrations{K: k}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var demo Demo
		if err := json.Unmarshal(sc.Bytes(), &demo); err != nil || demo.Text == "" || len(demo.Labels) == 0 {
			return nil, roundtable.Errorf(roundtable.Invalid, "%s:%d: want {\"text\":\"…\",\"labels\":[\"…\"]} (%v)", name, line, err)
		}
		d.Set = append(d.Set, demo)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return d, nil
}
