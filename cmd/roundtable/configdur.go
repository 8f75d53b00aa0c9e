package main

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

var durationType = reflect.TypeOf(Duration(0))

// bareDurations refuses a duration key given as a bare number: the TOML
// library would store `vote = 120` as 120 nanoseconds, a phase that closes
// at once. The error names the key.
func bareDurations(data []byte) error {
	var tree map[string]any
	if err := toml.Unmarshal(data, &tree); err != nil {
		return nil // the strict decode has already reported it
	}
	return checkDurations(nil, tree, reflect.TypeOf(Config{}))
}

func checkDurations(path []string, val any, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == durationType:
		if _, isString := val.(string); !isString {
			return fmt.Errorf("%s: want a duration string such as \"30s\" or \"2m\", not %v (a number has no unit)", strings.Join(path, "."), val)
		}
	case t.Kind() == reflect.Struct:
		if m, ok := val.(map[string]any); ok {
			return checkStructDurations(path, m, t)
		}
	case t.Kind() == reflect.Slice:
		items, _ := val.([]any)
		for i, item := range items {
			if err := checkDurations(indexed(path, i), item, t.Elem()); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkStructDurations(path []string, m map[string]any, t reflect.Type) error {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if f.Anonymous && name == "" {
			if err := checkStructDurations(path, m, f.Type); err != nil {
				return err
			}
			continue
		}
		if v, ok := m[name]; ok && name != "-" {
			if err := checkDurations(append(append([]string(nil), path...), name), v, f.Type); err != nil {
				return err
			}
		}
	}
	return nil
}

// indexed names the i-th entry of an array of tables as Validate does:
// table[0].
func indexed(path []string, i int) []string {
	out := append([]string(nil), path...)
	if n := len(out); n > 0 {
		out[n-1] = fmt.Sprintf("%s[%d]", out[n-1], i)
	}
	return out
}
