package web

import "testing"

func TestTokensBindSubjectPurposeAndSecret(t *testing.T) {
	k := keys{secret: []byte("one")}
	tok := k.token(purposeJoin, "r1")
	cases := []struct {
		name string
		keys keys
		purp string
		subj string
		tok  string
		want bool
	}{
		{"its own token", k, purposeJoin, "r1", tok, true},
		{"another room", k, purposeJoin, "r2", tok, false},
		{"join is not organiser", k, purposeOrganiser, "r1", tok, false},
		{"another secret", keys{secret: []byte("two")}, purposeJoin, "r1", tok, false},
		{"empty token", k, purposeJoin, "r1", "", false},
		{"truncated", k, purposeJoin, "r1", tok[:len(tok)-1], false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.keys.valid(c.purp, c.subj, c.tok); got != c.want {
				t.Errorf("valid = %v, want %v", got, c.want)
			}
		})
	}
}

func TestSignedUserIDsCannotBeForged(t *testing.T) {
	k := keys{secret: []byte("s")}
	v := k.signUser("abc123")
	if id, ok := k.userFrom(v); !ok || id != "abc123" {
		t.Fatalf("userFrom(%q) = %q, %v", v, id, ok)
	}
	for _, forged := range []string{"abc124" + v[6:], "abc123", "abc123.", ".x", "a b.c", v + "x"} {
		if id, ok := k.userFrom(forged); ok {
			t.Errorf("userFrom(%q) accepted %q", forged, id)
		}
	}
}

func TestCursorsRoundTrip(t *testing.T) {
	c := cursor{Ver: 12, Priv: 3, Boot: "ab12"}
	if got := parseCursor(c.String()); got != c {
		t.Errorf("parseCursor(%q) = %+v", c.String(), got)
	}
	for _, bad := range []string{"", "1.2", "x.1.ab", "1.2.a b", "1.-2.ab"} {
		if got := parseCursor(bad); got != (cursor{}) {
			t.Errorf("parseCursor(%q) = %+v, want the start", bad, got)
		}
	}
}

func TestCleanNameClipsAndStripsControls(t *testing.T) {
	if got := cleanName("  Ada\x00 \n Lovelace\u202e "); got != "Ada Lovelace" {
		t.Errorf("cleanName = %q", got)
	}
	long := cleanName(string(make([]rune, 0)) + "ééééééééééééééééééééééééééééééééééééééééé") // 41 runes, 82 bytes
	if len(long) > 64 || len(long)%2 != 0 {
		t.Errorf("cleanName clipped to %d bytes, cutting a rune", len(long))
	}
}
