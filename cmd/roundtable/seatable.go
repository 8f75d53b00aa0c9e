package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// seatable reports why a model-free agent cannot play a table, so that a
// [[table]] preset is refused when the config is read rather than when
// someone starts the table. The Facilitator and language models play
// every task and protocol; a utility trader plays only the exchange
// economy; the offline protocol agents play only their own protocol.
func seatable(p roundtable.Participant, c roundtable.Config) error {
	kind, _, _ := strings.Cut(p.Agent, ":")
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
