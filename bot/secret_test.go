package bot

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

func TestSecretOption(t *testing.T) {
	for in, want := range map[string]roundtable.Secrecy{
		"":         {Ballots: true}, // a preset's setting stays
		"yes":      {Ballots: true},
		"Research": {Ballots: true, Research: true},
		"no":       {},
	} {
		cfg := roundtable.Config{Secret: roundtable.Secrecy{Ballots: true}}
		if err := secretOption(&cfg, map[string]string{"secret": in}); err != nil || cfg.Secret != want {
			t.Errorf("secret:%q gives %+v, %v; want %+v", in, cfg.Secret, err, want)
		}
	}
	err := secretOption(&roundtable.Config{}, map[string]string{"secret": "maybe"})
	if err == nil || !strings.Contains(err.Error(), `secret: "maybe" is not yes, research or no`) {
		t.Errorf("secret:maybe: %v", err)
	}
	if a, b := pseudonymKey(), pseudonymKey(); len(a) != 32 || a == b {
		t.Errorf("pseudonym keys %q, %q: want two different 16-byte keys", a, b)
	}
}
