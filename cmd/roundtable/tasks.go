package main

import (
	"fmt"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
)

// liveTask builds the task of a live table from its recorded spec. It must
// give the same task for the same spec: tables are rebuilt from their logs
// after a restart.
func liveTask(spec roundtable.TaskSpec, seats int) (roundtable.Task, error) {
	switch spec.Kind {
	case "text", "":
		if spec.Topic == "" {
			return nil, fmt.Errorf("the text task needs a topic")
		}
		return roundtable.TextTask{Topic: spec.Topic}, nil
	case "exchange":
		if v := spec.Params["seats"]; v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 2 {
				return nil, fmt.Errorf("seats: %q is not a number of at least 2", v)
			}
			seats = n
		}
		return exchange.NewTask(seats, exchange.Preset(spec.Params["preset"]))
	case "recommendation":
		return nil, fmt.Errorf("the recommendation task runs headless only: roundtable sim --task recommendation --data DIR")
	}
	return nil, fmt.Errorf("unknown task %q (want text or exchange)", spec.Kind)
}
