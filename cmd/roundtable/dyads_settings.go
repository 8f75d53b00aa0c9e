package main

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/offline"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
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
	return DyadSettings{Control: roundtable.ControlNone, Memory: offline.MemoryCumulative}
}

func (d *DyadSettings) register(fl *pflag.FlagSet) {
	fl.StringVar(&d.Control, "control", "", "dyads: none, no-interaction (each step one drawn agent reports, nobody writes) or no-role-play (no interaction, no persona) (default none)")
	fl.StringVar(&d.Memory, "memory", "", "dyads: cumulative or reflective memory (default cumulative)")
	fl.StringVar(&d.Framing, "framing", "", "dyads: true or false framing of --claim, or the label of --question's framing")
	fl.BoolVar(&d.ClosedWorld, "closed-world", false, "dyads: tell model personas they cannot look anything up (model-free agents never can)")
	fl.StringVar(&d.Claim, "claim", "", "dyads: a built-in claim ("+strings.Join(claimNames(), ", ")+"); --framing picks its true or false statement")
}

func (d *DyadSettings) fill(changed func(string) bool, c DyadSettings) {
	pick(changed, "control", &d.Control, c.Control)
	pick(changed, "memory", &d.Memory, c.Memory)
	pick(changed, "framing", &d.Framing, c.Framing)
	pick(changed, "claim", &d.Claim, c.Claim)
	pick(changed, "closed-world", &d.ClosedWorld, c.ClosedWorld)
}

// settingName names a setting in an error: the flag under sim (key "--protocol"),
// else the config key beside key's protocol.
func settingName(key, name string) string {
	if strings.HasPrefix(key, "--") {
		return "--" + strings.ReplaceAll(name, "_", "-")
	}
	return strings.TrimSuffix(key, "protocol") + name
}

// check reports the first bad dyads setting, naming its flag or key.
func (d DyadSettings) check(key, protocol, q string) error {
	switch d.Control {
	case "", roundtable.ControlNone, roundtable.ControlNoInteraction, roundtable.ControlNoRolePlay:
	default:
		return usagef("%s: %q is not none, no-interaction or no-role-play", settingName(key, "control"), d.Control)
	}
	switch d.Memory {
	case "", offline.MemoryCumulative, offline.MemoryReflective:
	default:
		return usagef("%s: %q is not cumulative or reflective", settingName(key, "memory"), d.Memory)
	}
	switch d.Framing {
	case "", "true", "false":
	default:
		return usagef("%s: %q is not true or false", settingName(key, "framing"), d.Framing)
	}
	if d.Claim != "" {
		if q != "" {
			return usagef("%s: give a built-in claim or %s, not both", settingName(key, "claim"), settingName(key, "question"))
		}
		if _, ok := claims[d.Claim]; !ok {
			return usagef("%s: %q is not a built-in claim (%s)", settingName(key, "claim"), d.Claim, strings.Join(claimNames(), ", "))
		}
	}
	set := (d.Control != "" && d.Control != roundtable.ControlNone) || (d.Memory != "" && d.Memory != offline.MemoryCumulative) || d.Framing != "" || d.Claim != "" || d.ClosedWorld
	if protocol != roundtable.ProtocolDyads && set {
		return usagef("%s: control, memory, framing and claim are settings of the dyads protocol, not %q", settingName(key, "protocol"), protocol)
	}
	return nil
}

// record keeps the conditions in the protocol's parameters, so that
// analyze groups and labels runs from their logs.
func (d DyadSettings) record(pr *roundtable.Protocol, p ProtocolSettings) {
	if pr == nil || pr.Name != roundtable.ProtocolDyads {
		return
	}
	put := func(k, v, def string) { pr.Params[k] = cmp.Or(v, def) }
	put("control", d.Control, roundtable.ControlNone)
	put("memory", d.Memory, offline.MemoryCumulative)
	put("confirmation_bias", p.ConfirmationBias, opinion.BiasNone)
	put("framing", d.Framing, "unlabelled")
	put("stances", p.Stances, "uniform")
	if d.Claim != "" {
		pr.Params["claim"] = d.Claim
	}
	if d.ClosedWorld {
		pr.Params["closed_world"] = "true"
	}
}

// claimText is the question a table surveys: the built-in claim in its
// framing, else --question.
func (p ProtocolSettings) claimText() string {
	c, ok := claims[p.Claim]
	if !ok {
		return p.Question
	}
	text := c.truth
	if p.Framing == "false" {
		text = c.falsehood
	}
	// The paper puts "Theory XYZ" before every claim so that the wording
	// of a topic does not cue the model.
	return "Theory XYZ claims that " + text + "."
}

// claim is a topic with a known ground truth, in both framings (our own
// wording of the kind of topic Opinion dynamics uses).
type claim struct{ truth, falsehood string }

var claims = map[string]claim{
	"flat-earth":      {"the Earth is a slightly flattened sphere", "the Earth is flat"},
	"global-warming":  {"the global climate is warming quickly", "global warming is a hoax invented by governments"},
	"moon-landing":    {"astronauts landed on the Moon in 1969", "the 1969 Moon landing was filmed in a studio"},
	"vaccines-autism": {"vaccines do not cause autism", "vaccines cause autism"},
}

func claimNames() []string { return slices.Sorted(maps.Keys(claims)) }

// conditionTag names a dyads run's condition in its table IDs, so runs of
// different conditions in one directory neither collide nor resume each
// other: only settings off their defaults appear.
func (p ProtocolSettings) conditionTag() string {
	if p.Protocol != roundtable.ProtocolDyads && p.Protocol != roundtable.ProtocolChatroom && p.Protocol != roundtable.ProtocolQuestionnaire {
		return ""
	}
	var parts []string
	add := func(name, v string, defaults ...string) {
		for _, d := range defaults {
			if v == d {
				return
			}
		}
		parts = append(parts, name+"_"+sanitize(v))
	}
	add("st", p.Stances, "", "uniform")
	if p.Protocol == roundtable.ProtocolDyads {
		add("ctl", p.Control, "", roundtable.ControlNone)
		add("mem", p.Memory, "", offline.MemoryCumulative)
		add("cb", p.ConfirmationBias, "", opinion.BiasNone)
		add("fr", p.Framing, "")
		add("claim", p.Claim, "")
		if p.ClosedWorld {
			parts = append(parts, "closed")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "-" + strings.Join(parts, "-")
}

// liveCheck refuses, in a [[table]] preset, the settings that belong to
// agents rather than to the table: a live table's agents come from
// [[agent]] presets, which carry their own memory and persona.
func (p ProtocolSettings) liveCheck(key string) error {
	if p.Memory != "" && p.Memory != offline.MemoryCumulative {
		return usagef("%s.memory: a live table's agents keep the memory of their [[agent]] preset (memory = \"reflective\" there)", key)
	}
	if p.ConfirmationBias != "" && p.ConfirmationBias != opinion.BiasNone {
		return usagef("%s.confirmation_bias: a live table's agents take their persona from their [[agent]] preset; write the bias into its background", key)
	}
	if p.ClosedWorld {
		return usagef("%s.closed_world: a live table's agents take their persona from their [[agent]] preset; write the restriction into its background", key)
	}
	if p.Control == roundtable.ControlNoRolePlay {
		return usagef("%s.control: no-role-play removes the agents' personas, which a live table takes from [[agent]] presets; use no-interaction, and agents without background", key)
	}
	return p.ChatroomSettings.liveCheck(key)
}

// checkDyadAgents refuses conditions the chosen agents cannot play.
func checkDyadAgents(f simFlags, pr *roundtable.Protocol, bias string) error {
	offlineBias := f.agent == string(offline.DeGroot) || f.agent == string(offline.Deffuant)
	switch {
	case bias != "" && f.agent != "llm" && !offlineBias:
		return usagef("--confirmation-bias: the %s agents of the %s protocol have no confirmation bias (dyads agents and --agent llm do)", f.agent, pr.Name)
	case bias != "" && f.proto.Control == roundtable.ControlNoRolePlay:
		return usagef("--confirmation-bias: the no-role-play control has no persona to carry a bias; use --control no-interaction")
	}
	return nil
}

// llmMemory maps a dyads memory policy to the language-model agent's.
func llmMemory(m string) string {
	if m == offline.MemoryReflective {
		return agent.MemoryReflective
	}
	return agent.MemoryFull
}

// known drops the opinions not known yet (NaN): agents of the no-role-play
// control have none before their first report.
func known(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}

// paramsText lists a protocol's parameters, sorted: "control none, memory
// cumulative".
func paramsText(params map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(params)) {
		parts = append(parts, k+" "+params[k])
	}
	return strings.Join(parts, ", ")
}
