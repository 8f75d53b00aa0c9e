package label

import (
	"context"
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

// DefaultMaxTurns bounds a negotiation session when MaxTurns is zero.
const DefaultMaxTurns = 3

// Endpoint is a named model taking part in a negotiation.
type Endpoint struct {
	Name string
	LLM  agent.LLM
}

// Negotiator labels by negotiation between models (docs/protocol.md#negotiation).
// In a session, the generator answers (reasoning and labels) and the
// discriminator judges the answer (agree or not, why, and its own labels);
// the generator answers again in the light of the judgement until the
// discriminator agrees or MaxTurns pass. The first two endpoints hold a
// session in each role order; then:
//
//   - both sessions agree on the same answer: that answer;
//   - exactly one session reached agreement: its answer;
//   - neither did, but both generators ended on the same answer: that;
//   - otherwise a third endpoint holds a session in both role orders with
//     each of the first two, and the answer of most of the six sessions
//     wins (a tie goes to the tied answer that more sessions agreed on,
//     then to the one reached first). With only two endpoints Label fails
//     with ErrNoConsensus.
//
// An unusable answer (no JSON, no allowed label) is asked again once with
// the error; a model failure, or a second unusable answer, ends the
// negotiation with an error naming the endpoint. Every turn is kept.
type Negotiator struct {
	Endpoints   []Endpoint // two or three
	MaxTurns    int
	Temperature *float64
	Demos       *Demonstrations
}

var _ Labeler = (*Negotiator)(nil)

// Turn is one move of a negotiation session.
type Turn struct {
	Session   int      `json:"session"`
	Turn      int      `json:"turn"`
	Role      string   `json:"role"` // "generator" or "discriminator"
	Endpoint  string   `json:"endpoint"`
	Labels    []string `json:"labels,omitempty"`
	Agree     *bool    `json:"agree,omitempty"` // discriminator only
	Reasoning string   `json:"reasoning,omitempty"`
}

// Outcome is where one session ended.
type Outcome struct {
	Session       int      `json:"session"`
	Generator     string   `json:"generator"`
	Discriminator string   `json:"discriminator"`
	Labels        []string `json:"labels"`
	Agreed        bool     `json:"agreed"`
}

// Model implements Labeler: the endpoint names joined by "+".
func (n *Negotiator) Model() string {
	names := make([]string, len(n.Endpoints))
	for i, e := range n.Endpoints {
		names[i] = e.Name
	}
	return "negotiation:" + strings.Join(names, "+")
}

// Label implements Labeler.
func (n *Negotiator) Label(ctx context.Context, q Question) (Verdict, error) {
	if len(n.Endpoints) < 2 || len(n.Endpoints) > 3 {
		return Verdict{}, fmt.Errorf("negotiation needs two or three endpoints, not %d", len(n.Endpoints))
	}
	if err := n.Demos.attach(ctx, &q); err != nil {
		return Verdict{}, err
	}
	v := &Verdict{}
	a, b := n.Endpoints[0], n.Endpoints[1]
	if err := n.sessions(ctx, q, v, [][2]Endpoint{{a, b}, {b, a}}); err != nil {
		return *v, err
	}
	if ans, ok := settle(v.Outcomes[0], v.Outcomes[1]); ok {
		v.Labels = ans
		return *v, nil
	}
	if len(n.Endpoints) == 2 {
		return *v, fmt.Errorf("label %s by negotiation between %s and %s: %w (%s and %s); configure a third endpoint",
			q.Name, a.Name, b.Name, ErrNoConsensus, strings.Join(v.Outcomes[0].Labels, ","), strings.Join(v.Outcomes[1].Labels, ","))
	}
	c := n.Endpoints[2]
	if err := n.sessions(ctx, q, v, [][2]Endpoint{{c, a}, {a, c}, {c, b}, {b, c}}); err != nil {
		return *v, err
	}
	v.Labels = majority(v.Outcomes)
	return *v, nil
}

func (n *Negotiator) sessions(ctx context.Context, q Question, v *Verdict, pairs [][2]Endpoint) error {
	for _, p := range pairs {
		if _, err := n.session(ctx, q, v, p[0], p[1]); err != nil {
			return fmt.Errorf("label %s by negotiation: %w", q.Name, err)
		}
	}
	return nil
}

// settle resolves two sessions of the first pair, if the rules allow.
func settle(o1, o2 Outcome) ([]string, bool) {
	same := key(o1.Labels) == key(o2.Labels)
	switch {
	case o1.Agreed && o2.Agreed:
		return o1.Labels, same
	case o1.Agreed:
		return o1.Labels, true
	case o2.Agreed:
		return o2.Labels, true
	}
	return o1.Labels, same
}

// majority picks the answer of most outcomes; ties go to the answer more
// sessions agreed on, then to the first reached.
func majority(outs []Outcome) []string {
	type count struct{ n, agreed, first int }
	counts := map[string]*count{}
	for i, o := range outs {
		c, ok := counts[key(o.Labels)]
		if !ok {
			c = &count{first: i}
			counts[key(o.Labels)] = c
		}
		c.n++
		if o.Agreed {
			c.agreed++
		}
	}
	best := -1
	var bc *count
	for i, o := range outs {
		c := counts[key(o.Labels)]
		if c.first != i {
			continue
		}
		if bc == nil || c.n > bc.n || (c.n == bc.n && c.agreed > bc.agreed) {
			best, bc = i, c
		}
	}
	return outs[best].Labels
}
