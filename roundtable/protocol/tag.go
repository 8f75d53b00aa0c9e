package protocol

import (
	"maps"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
)

// Tag names a condition in table IDs: the settings off their defaults.
type Tag []string

// StancesTag starts a condition's tag with its stance assignment, unless
// it is the default.
func StancesTag(s Settings) Tag {
	var t Tag
	return t.Add("st", s.Stances, "", "uniform")
}

// Add adds name_value unless value is one of the defaults.
func (t Tag) Add(name, value string, defaults ...string) Tag {
	for _, d := range defaults {
		if value == d {
			return t
		}
	}
	return append(t, name+"_"+report.FileName(value))
}

// String is "" for no part, else "-" and the parts joined by "-".
func (t Tag) String() string {
	if len(t) == 0 {
		return ""
	}
	return "-" + strings.Join(t, "-")
}

// Params are a copy of the parameters s's protocol recorded, never nil:
// what labels a table's condition in reports.
func Params(s *roundtable.State) map[string]string {
	out := map[string]string{}
	if s.Config.Protocol != nil {
		maps.Copy(out, s.Config.Protocol.Params)
	}
	return out
}
