package exchange

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	e := mustNew(t, 2, Asymmetric)
	tests := []struct {
		name string
		a    Allocation
		want string
	}{
		{"integers", Allocation{{80, 20}, {20, 80}}, "[[80,20],[20,80]]"},
		{"rounded to 1e-6", Allocation{{100.0 / 3, 0.1 + 0.2}, {200.0 / 3, 99.7}}, "[[33.333333,0.3],[66.666667,99.7]]"},
		{"no negative zero", Allocation{{math.Copysign(0, -1), 1e-9}}, "[[0,0]]"},
		{"nil", nil, "[]"},
	}
	for _, tt := range tests {
		if got := e.Canonical(tt.a); got != tt.want {
			t.Errorf("%s: Canonical = %s, want %s", tt.name, got, tt.want)
		}
	}
	a := Allocation{{80, 20}, {20, 80}}
	b := Allocation{{80.0000001, 19.9999999}, {20, 80}}
	if e.Canonical(a) != e.Canonical(b) {
		t.Errorf("allocations within 1e-7 have different identities")
	}
}

func TestParseAllocation(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Allocation
		wantErr string
	}{
		{"matrix", " [[80,10,10],[10,80,10],[10,10,80]]\n", Allocation{{80, 10, 10}, {10, 80, 10}, {10, 10, 80}}, ""},
		{"object", `{"allocation": [[60.5, 39.5], [39.5, 60.5]], "why": "fair"}`, Allocation{{60.5, 39.5}, {39.5, 60.5}}, ""},
		{"ragged is syntax-valid", `[[1],[2,3]]`, Allocation{{1}, {2, 3}}, ""},
		{"empty", "  ", nil, "empty allocation: want one row per agent, e.g. 80 10 10; 10 80 10; 10 10 80 (or JSON [[80,10,10],...])"},
		{"strings", `[["a"]]`, nil, "allocation is not valid JSON: want a list of rows, each a list of numbers, found a string"},
		{"flat list", `[80, 20]`, nil, "allocation is not valid JSON: want a list of rows, each a list of numbers, found a number"},
		{"object without key", `{"alloc": [[1]]}`, nil, `allocation object has no "allocation" key`},
		{"empty matrix", `[]`, nil, "allocation is empty: want one row per agent"},
		{"null row", `[[1,2],null]`, nil, "row 2 is null, want a list of amounts"},
		{"trailing text", `[[1]] thanks`, nil, "allocation is not valid JSON: invalid character 't' after top-level value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAllocation([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if !errors.Is(err, ErrInvalid) {
					t.Errorf("error does not match ErrInvalid")
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseAllocation = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func FuzzParseAllocation(f *testing.F) {
	for _, s := range []string{`[[80,10,10],[10,80,10],[10,10,80]]`, `{"allocation":[[1,2],[3,4]]}`, `[[-1e309]]`, `{}`} {
		f.Add([]byte(s))
	}
	e := mustNew(f, 3, Asymmetric)
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseAllocation(data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not match ErrInvalid", err)
			}
			return
		}
		if err := e.Validate(a); err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("Validate error %v does not match ErrInvalid", err)
		}
		e.Canonical(a)
		e.Total(a)
	})
}

func TestParseAllocationPlainRows(t *testing.T) {
	for _, in := range []string{"80 10 10; 10 80 10; 10 10 80", "80,10,10\n10,80,10\n10,10,80\n", " 80 10 10 ;10 80 10;10 10 80 "} {
		a, err := ParseAllocation([]byte(in))
		if err != nil || len(a) != 3 || a[1][1] != 80 || a[2][0] != 10 {
			t.Errorf("ParseAllocation(%q) = %v, %v", in, a, err)
		}
	}
	if _, err := ParseAllocation([]byte("80 ten 10")); err == nil || !strings.Contains(err.Error(), `"ten" is not a number`) {
		t.Errorf("want the bad amount named, got %v", err)
	}
}
