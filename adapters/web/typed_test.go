package web

import (
	"maps"
	"testing"
)

func TestTypedCommands(t *testing.T) {
	for _, c := range []struct {
		text string
		name string
		opts map[string]string
		ok   bool
	}{
		{"/roundtable vote ballot:B", "vote", map[string]string{"ballot": "B"}, true},
		{"/roundtable vote A=3 B=1", "vote", map[string]string{"ballot": "A=3 B=1"}, true},
		{"  /roundtable propose text: Soup for all ", "propose", map[string]string{"text": "Soup for all"}, true},
		{"/roundtable Join", "join", map[string]string{}, true},
		{"/roundtable export format:csv names:keep", "export", map[string]string{"format": "csv", "names": "keep"}, true},
		{"/roundtable", "help", map[string]string{}, true},
		{"/roundtables are great", "", nil, false},
		{"let us vote /roundtable vote B", "", nil, false},
	} {
		name, opts, ok := typedCommand(c.text)
		if name != c.name || ok != c.ok || !maps.Equal(opts, c.opts) {
			t.Errorf("typedCommand(%q) = %q %v %t; want %q %v %t", c.text, name, opts, ok, c.name, c.opts, c.ok)
		}
	}
}
