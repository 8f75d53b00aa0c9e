package main

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
)

// DyadSettings are the conditions of Opinion dynamics beyond the update
// rule: the controls, the memory policy and the framing of the claim.
type DyadSettings struct {
	// Control is none, no-interaction (nobody writes; each step one drawn
	// agent reports its belief) or no-role-play (no-interaction, and the
	// agents have no persona or initial belief).
	Control string `toml:"control"`
	// Memory is cumulative (every experience kept) or reflective (a compact
	// summary rewritten after each experience).
	Memory string `toml:"memory"`
	// Framing is true or false when the claim is one of the built-in
	// claims (Claim) or labels a given --question; "" for none.
	Framing string `toml:"framing"`
	// Claim names a built-in claim (see claims); its framing gives the
	// question.
	Claim string `toml:"claim"`
	// ClosedWorld tells language-model personas they cannot look anything
	// up (the paper's closed-world restriction). Model-free agents are
	// closed-world by construction.
	ClosedWorld bool `toml:"closed_world"`
}

func dyadDefaults() DyadSettings {
	return DyadSettings{Control: dyads.ControlNone, Memory: dyads.MemoryCumulative}
}

func (d *DyadSettings) register(fl *pflag.FlagSet) {
	fl.StringVar(&d.Control, "control", "", "dyads: none, no-interaction (each step one drawn agent reports, nobody writes) or no-role-play (no interaction, no persona) (default none)")
	fl.StringVar(&d.Memory, "memory", "", "dyads: cumulative or reflective memory (default cumulative)")
	fl.StringVar(&d.Framing, "framing", "", "dyads: true or false framing of --claim, or the label of --question's framing")
	fl.BoolVar(&d.ClosedWorld, "closed-world", false, "dyads: tell model personas they cannot look anything up (model-free agents never can)")
	fl.StringVar(&d.Claim, "claim", "", "dyads: a built-in claim ("+strings.Join(dyads.ClaimNames(), ", ")+"); --framing picks its true or false statement")
}

func (d *DyadSettings) fill(changed func(string) bool, c DyadSettings) {
	pick(changed, "control", &d.Control, c.Control)
	pick(changed, "memory", &d.Memory, c.Memory)
	pick(changed, "framing", &d.Framing, c.Framing)
	pick(changed, "claim", &d.Claim, c.Claim)
	pick(changed, "closed-world", &d.ClosedWorld, c.ClosedWorld)
}

// liveCheck refuses, in a [[table]] preset, the settings that belong to
// agents rather than to the table: a live table's agents come from
// [[agent]] presets, which carry their own memory and persona.
func (p ProtocolSettings) liveCheck(key string) error {
	if p.Memory != "" && p.Memory != dyads.MemoryCumulative {
		return usagef("%s.memory: a live table's agents keep the memory of their [[agent]] preset (memory = \"reflective\" there)", key)
	}
	if p.ConfirmationBias != "" && p.ConfirmationBias != opinion.BiasNone {
		return usagef("%s.confirmation_bias: a live table's agents take their persona from their [[agent]] preset; write the bias into its background", key)
	}
	if p.ClosedWorld {
		return usagef("%s.closed_world: a live table's agents take their persona from their [[agent]] preset; write the restriction into its background", key)
	}
	if p.Control == dyads.ControlNoRolePlay {
		return usagef("%s.control: no-role-play removes the agents' personas, which a live table takes from [[agent]] presets; use no-interaction, and agents without background", key)
	}
	return p.ChatroomSettings.liveCheck(key)
}
