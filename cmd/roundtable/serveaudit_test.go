package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
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

// TestStanceAuditWithoutAModelSpeaksToThePage: a live table's stance
// audit on a server without a language model is refused in words a web
// page or a chat command can show (what to do and who does it), naming no
// command-line flag.
func TestStanceAuditWithoutAModelSpeaksToThePage(t *testing.T) {
	_, err := (&App{}).auditInstruments(context.Background(), Config{}, roundtable.AuditSpec{Instruments: []string{"stance"}, Statement: "Homework should go."})
	if err == nil {
		t.Fatal("a stance audit without a model was accepted")
	}
	if msg := err.Error(); strings.Contains(msg, "--") || !strings.Contains(msg, "language model") || roundtable.ErrorCode(err) != roundtable.Invalid {
		t.Errorf("the refusal reads %q (code %s); want an invalid request naming the missing language model and no flag", msg, roundtable.ErrorCode(err))
	}
}
