package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// seatable reports why a model-free agent cannot play a table, so that a
// [[table]] preset is refused when the config is read rather than when
// someone starts the table. Language models play every task and
// protocol, the Facilitator every one but the exchange economy (whose
// every seat has a share of the goods); a utility trader plays only the
// exchange economy; the offline protocol agents play only their own
// protocol.
func seatable(p roundtable.Participant, c roundtable.Config) error {
	kind, _, _ := strings.Cut(p.Agent, ":")
	if kind == facilitator.Kind && c.Task.Kind == "exchange" {
		return fmt.Errorf("%q takes no share of the goods, and every seat of the exchange economy has one: seat traders and people there", p.Name)
	}
	if kind == "utility" && c.Task.Kind != "exchange" {
		return fmt.Errorf("%q is a rule-based trader, which only plays the exchange economy (task = \"exchange\"), not a %s table", p.Name, tableKind(c))
	}
	if ps := protocol.AgentProtocols(kind); len(ps) > 0 && !slices.Contains(ps, c.Protocol.String()) {
		return fmt.Errorf("%q is a model-free %s agent of the %s protocol, not of a %s table", p.Name, kind, strings.Join(ps, " or "), tableKind(c))
	}
	return nil
}

func tableKind(c roundtable.Config) string {
	if c.Protocol == nil {
		return c.Task.Kind + " task"
	}
	return c.Protocol.String() + " protocol"
}
