package sim

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// RecipeError is a stored table whose recipe (its config and what its
// seats think with, the software that made it aside) is not the one
// asked for: reusing it would report its results as another's.
type RecipeError struct {
	Table string
	Keys  []string // the differing keys, each with the stored and the asked value
}

func (e *RecipeError) Error() string {
	const show = 6
	keys := e.Keys
	more := ""
	if len(keys) > show {
		keys, more = keys[:show], fmt.Sprintf(" and %d more", len(e.Keys)-show)
	}
	return fmt.Sprintf("table %s is stored with another recipe (%s%s); write to another directory (--out), or pass --new-tables to start new tables beside it",
		e.Table, strings.Join(keys, "; "), more)
}

// openOrCreate opens table id when it is stored with the recipe asked
// for, creates it when it is not stored, and otherwise refuses it
// (RecipeError) or, with fresh, opens or creates the table of this recipe
// beside it: id suffixed with the recipe's hash. It returns the table's
// ID and whether it was stored.
func openOrCreate(ctx context.Context, store roundtable.Store, clock roundtable.Clock, tb Table, id string, fresh bool) (*roundtable.Table, string, bool, error) {
	t, err := open(ctx, store, clock, tb, id)
	var re *RecipeError
	if errors.As(err, &re) && fresh {
		id += "-" + recipeHash(tb.Config)
		t, err = open(ctx, store, clock, tb, id)
	}
	if err == nil {
		return t, id, true, nil
	}
	if roundtable.ErrorCode(err) != roundtable.NotFound {
		return nil, id, false, err
	}
	t, err = roundtable.Create(ctx, store, clock, tb.Task, id, tb.Config)
	if err != nil {
		return nil, id, false, errors.Join(fmt.Errorf("create %s", id), err)
	}
	return t, id, false, nil
}

// open opens stored table id if its recipe is tb's.
func open(ctx context.Context, store roundtable.Store, clock roundtable.Clock, tb Table, id string) (*roundtable.Table, error) {
	t, err := roundtable.Open(ctx, store, clock, tb.Task, id)
	if err != nil {
		return nil, err
	}
	var got roundtable.Config
	t.Read(func(s *roundtable.State) { got = s.Config })
	keys, err := RecipeDiff(got, tb.Config.WithDefaults())
	if err != nil {
		return nil, fmt.Errorf("compare %s: %w", id, err)
	}
	if len(keys) > 0 {
		return nil, &RecipeError{Table: id, Keys: keys}
	}
	return t, nil
}

// RecipeDiff names every key where two tables' recipes differ, with both
// values: "provenance.agents.agent-1.model: \"a\" stored, \"b\" asked".
// The recipe is the whole config, the software that made the table
// aside (Provenance.Software); a config without model seats and one
// made before provenance was recorded are alike.
func RecipeDiff(stored, asked roundtable.Config) ([]string, error) {
	a, err := flatRecipe(stored)
	if err != nil {
		return nil, err
	}
	b, err := flatRecipe(asked)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(union(a, b))) {
		av, inA := a[k]
		bv, inB := b[k]
		switch {
		case !inA:
			out = append(out, fmt.Sprintf("%s: none stored, %s asked", k, bv))
		case !inB:
			out = append(out, fmt.Sprintf("%s: %s stored, none asked", k, av))
		case av != bv:
			out = append(out, fmt.Sprintf("%s: %s stored, %s asked", k, av, bv))
		}
	}
	return out, nil
}

// recipeHash is the first 8 hex digits of a SHA-256 of c's recipe.
func recipeHash(c roundtable.Config) string {
	flat, _ := flatRecipe(c.WithDefaults()) // a config that encodes once encodes again
	h := sha256.New()
	for _, k := range slices.Sorted(maps.Keys(flat)) {
		fmt.Fprintf(h, "%s=%s\n", k, flat[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:8]
}

// flatRecipe is c's recipe as key paths to JSON values.
func flatRecipe(c roundtable.Config) (map[string]string, error) {
	if p := c.Provenance; p != nil && len(p.Agents) == 0 {
		c.Provenance = nil
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	out := map[string]string{}
	flatten("", v, out)
	return out, nil
}

func flatten(path string, v any, out map[string]string) {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "software" && path == "provenance" {
				continue
			}
			flatten(join(k), e, out)
		}
	case []any:
		for i, e := range x {
			flatten(path+"["+strconv.Itoa(i)+"]", e, out)
		}
	default:
		b, _ := json.Marshal(x)
		out[path] = string(b)
	}
}

func union(a, b map[string]string) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
