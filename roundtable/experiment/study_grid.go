package experiment

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// gridCell is one cell of a study's grid: its values by key, and its name
// ("rounds-5_rule-borda").
type gridCell struct {
	name   string
	values map[string]any
}

// gridCells crosses the values of the file's grid and a condition's own,
// keys in alphabetical order: one empty cell without a grid. Each key is
// a recipe's, with a list of values, in one of the two grids.
func gridCells(file, own map[string]any) ([]gridCell, error) {
	grid := maps.Clone(file)
	for k, v := range own {
		if _, dup := grid[k]; dup {
			return nil, fmt.Errorf("grid.%s: both the file's grid and the condition's cross it", k)
		}
		if grid == nil {
			grid = map[string]any{}
		}
		grid[k] = v
	}
	cells := []gridCell{{values: map[string]any{}}}
	keys := recipeKeys()
	for _, k := range slices.Sorted(maps.Keys(grid)) {
		switch {
		case !slices.Contains(keys, k):
			return nil, fmt.Errorf("grid.%s: not a key of a condition (want one of %s)", k, strings.Join(keys, ", "))
		case k == "bot" || k == "stand_in" || k == "durations":
			return nil, fmt.Errorf("grid.%s: a grid crosses single values; write one condition per %s", k, k)
		}
		values, ok := grid[k].([]any)
		if !ok || len(values) == 0 {
			return nil, fmt.Errorf("grid.%s: want a list of values, e.g. %s = [1, 2]", k, k)
		}
		var next []gridCell
		for _, c := range cells {
			for _, v := range values {
				vs := maps.Clone(c.values)
				vs[k] = v
				next = append(next, gridCell{name: joinCell(c.name, k+"-"+slugValue(v)), values: vs})
			}
		}
		cells = next
	}
	return cells, nil
}

func joinCell(a, b string) string {
	if a == "" {
		return b
	}
	return a + "_" + b
}

// slugValue writes a grid value for a condition's name: letters, digits,
// '.' and '-'.
func slugValue(v any) string {
	s := fmt.Sprint(v)
	if l, ok := v.([]any); ok {
		parts := make([]string, len(l))
		for i, x := range l {
			parts[i] = fmt.Sprint(x)
		}
		s = strings.Join(parts, "+")
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '+':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

// recipeKeys are the keys of a recipe in a study file.
func recipeKeys() []string {
	t := reflect.TypeOf(Recipe{})
	keys := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		keys = append(keys, t.Field(i).Tag.Get("toml"))
	}
	return keys
}
