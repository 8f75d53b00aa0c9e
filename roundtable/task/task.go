// Package task builds a live table's task from the spec its log records:
// the free-text task, or the exchange economy (package exchange). The
// recommendation task runs headless only (package experiment).
package task

import (
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
)

// Live builds the task of a live table from its recorded spec and its
// seats. It gives the same task for the same spec: tables are rebuilt from
// their logs after a restart.
func Live(spec roundtable.TaskSpec, seats int) (roundtable.Task, error) {
	switch spec.Kind {
	case "text", "":
		if spec.Topic == "" {
			return nil, fmt.Errorf("the text task needs a topic")
		}
		return roundtable.TextTask{Topic: spec.Topic}, nil
	case "exchange":
		return exchange.FromSpec(spec, seats)
	case "recommendation":
		return nil, fmt.Errorf("the recommendation task runs headless only: roundtable sim --task recommendation --data DIR")
	}
	return nil, fmt.Errorf("unknown task %q (want text or exchange)", spec.Kind)
}
