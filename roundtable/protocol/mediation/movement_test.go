package mediation_test

import (
	"context"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/mediation"
)

// A statement that did not move from the first draft moved 0, exactly
// (the dashboard showed 2.22e−16), and one that changed moved by a
// cosine distance in (0, 1] of hashed TF-IDF vectors.
func TestMovementIsZeroForAnUnchangedStatement(t *testing.T) {
	ctx := context.Background()
	same := mediation.Agreement{FirstDraft: "We propose slower streets and a market-day closure.", Statement: "We propose slower streets and a market-day closure."}
	if d, ok, err := mediation.Movement(ctx, embed.HashedTFIDF{}, same); err != nil || !ok || d != 0 {
		t.Errorf("unchanged statement moved %v (%v, %v), want 0", d, ok, err)
	}
	moved := same
	moved.Statement = "We propose delivery slots for shops and a closure on market days only."
	if d, ok, err := mediation.Movement(ctx, embed.HashedTFIDF{}, moved); err != nil || !ok || d <= 0 || d > 1 {
		t.Errorf("revised statement moved %v (%v, %v), want a distance in (0, 1]", d, ok, err)
	}
	if _, ok, _ := mediation.Movement(ctx, embed.HashedTFIDF{}, mediation.Agreement{FirstDraft: "x"}); ok {
		t.Error("a table with no statement has a movement")
	}
}
