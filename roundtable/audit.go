package roundtable

import (
	"slices"
	"strings"
)

// Audit instruments a table can ask for.
const (
	AuditSentiment = "sentiment"
	AuditStance    = "stance"
)

// AuditSpec asks for a table's messages to be annotated as they are
// revealed (sealed messages at their phase's close, live ones as they
// come), in the background, beside the log: the annotations never reach
// agents and never delay a phase.
type AuditSpec struct {
	// Instruments are "sentiment" and/or "stance".
	Instruments []string `json:"instruments"`
	// Statement is the statement under audit (stance is relative to it);
	// Complement is its opposite, "" for "the opposite of the statement".
	Statement  string `json:"statement,omitempty"`
	Complement string `json:"complement,omitempty"`
	// SelfReport asks people privately, at the end of every round, where
	// they stand on the statement (one click on the five stance levels).
	SelfReport bool `json:"self_report,omitempty"`
}

// Has reports whether the audit runs instrument.
func (a *AuditSpec) Has(instrument string) bool {
	if a == nil {
		return false
	}
	for _, in := range a.Instruments {
		if in == instrument {
			return true
		}
	}
	return false
}

func (a *AuditSpec) clone() *AuditSpec {
	if a == nil {
		return nil
	}
	c := *a
	c.Instruments = slices.Clone(a.Instruments)
	return &c
}

// Validate reports the first problem with the audit, naming its field.
func (a *AuditSpec) Validate() error {
	if a == nil {
		return nil
	}
	if len(a.Instruments) == 0 && !a.SelfReport {
		return Errorf(Invalid, "audit: name the instruments (sentiment, stance) or ask for self-reports")
	}
	for _, in := range a.Instruments {
		if in != AuditSentiment && in != AuditStance {
			return Errorf(Invalid, "audit: unknown instrument %q (want sentiment or stance)", in)
		}
	}
	if (a.Has(AuditStance) || a.SelfReport) && strings.TrimSpace(a.Statement) == "" {
		return Errorf(Invalid, "audit_statement: a stance audit or a self-report needs the statement under audit")
	}
	return nil
}
