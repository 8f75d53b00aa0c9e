package bot

import (
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// applyAudit reads a start command's audit options: audit (a list of
// instruments: sentiment, stance; or "none"), audit_statement,
// audit_complement and self_report (yes/no). They extend or replace the
// preset's audit; validation is the config's.
func applyAudit(cfg *roundtable.Config, opt map[string]string) {
	_, listed := opt["audit"]
	if !listed && opt["audit_statement"] == "" && opt["self_report"] == "" {
		return
	}
	spec := roundtable.AuditSpec{}
	if cfg.Audit != nil {
		spec = *cfg.Audit
		spec.Instruments = append([]string(nil), spec.Instruments...)
	}
	if listed {
		spec.Instruments = nil
		for _, in := range strings.FieldsFunc(opt["audit"], func(r rune) bool { return r == ',' || r == ' ' }) {
			if !strings.EqualFold(in, "none") {
				spec.Instruments = append(spec.Instruments, strings.ToLower(in))
			}
		}
	}
	if v := strings.TrimSpace(opt["audit_statement"]); v != "" {
		spec.Statement = clip(v, 1000)
	}
	if v := strings.TrimSpace(opt["audit_complement"]); v != "" {
		spec.Complement = clip(v, 1000)
	}
	if v := opt["self_report"]; v != "" {
		spec.SelfReport = strings.EqualFold(v, "yes") || strings.EqualFold(v, "true")
	}
	cfg.Audit = &spec
	if len(spec.Instruments) == 0 && !spec.SelfReport {
		cfg.Audit = nil
	}
}
