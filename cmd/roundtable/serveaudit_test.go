package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestTablePresetAuditReplacesTheDefault(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.toml")
	body := "[bot]\naudit = [\"sentiment\"]\n[[table]]\nname = \"a\"\ntopic = \"T\"\naudit = [\"stance\"]\naudit_statement = \"S\"\nself_report = true\n[[table]]\nname = \"b\"\ntopic = \"T\"\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := cfg.Tables[0].config(cfg.Bot, "table[0]")
	b, _ := cfg.Tables[1].config(cfg.Bot, "table[1]")
	if a.Audit == nil || !a.Audit.Has("stance") || a.Audit.Has("sentiment") || !a.Audit.SelfReport || a.Audit.Statement != "S" {
		t.Errorf("preset a's audit: %+v", a.Audit)
	}
	if b.Audit == nil || !b.Audit.Has("sentiment") || b.Audit.SelfReport {
		t.Errorf("preset b takes [bot]'s audit: %+v", b.Audit)
	}
}
