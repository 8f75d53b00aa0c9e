package main

import (
	"os"
	"path/filepath"
	"strings"
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

// A preset asking for self-reports with a stop rule their survey cannot
// follow is refused when the config loads, naming the file and the keys.
func TestSelfReportPresetWithConsecutiveAgreementsIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.toml")
	body := "[[table]]\nname = \"a\"\ntopic = \"T\"\nearly_stop = \"consecutive-agreements\"\naudit_statement = \"S\"\nself_report = true\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := LoadConfig(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "table[0]") ||
		!strings.Contains(err.Error(), "self_report") || !strings.Contains(err.Error(), "early_stop") {
		t.Errorf("LoadConfig: %v", err)
	}
}
