package label

import (
	"fmt"
	"testing"
)

func TestMajorityOfSixOutcomes(t *testing.T) {
	o := func(label string, agreed bool) Outcome { return Outcome{Labels: []string{label}, Agreed: agreed} }
	tests := []struct {
		name string
		outs []Outcome
		want string
	}{
		{"most outcomes win", []Outcome{o("no", true), o("yes", false), o("yes", false), o("no", true), o("yes", false), o("yes", false)}, "[yes]"},
		{"a 3-3 tie goes to the answer more sessions agreed on",
			[]Outcome{o("no", false), o("yes", false), o("yes", true), o("no", false), o("yes", true), o("no", true)}, "[yes]"},
		{"a full tie goes to the answer reached first",
			[]Outcome{o("no", true), o("yes", true), o("yes", false), o("no", false), o("yes", false), o("no", false)}, "[no]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(majority(tt.outs)); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}
