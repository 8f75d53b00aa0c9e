package main

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
)

// ProtocolSettings choose a table's schedule (docs/protocol.md#presets):
// in [sim], in a [[table]] preset, and as sim flags.
type ProtocolSettings struct {
	Protocol  string   `toml:"protocol"`  // roundtable, panel, chatroom or dyads
	Question  string   `toml:"question"`  // the statement or claim surveyed
	Items     []string `toml:"items"`     // panel: the items evaluated
	Alpha     float64  `toml:"alpha"`     // panel: weight of the newest opinion
	Tolerance float64  `toml:"tolerance"` // panel: stop when no sentiment moves this much
	TwoWay    bool     `toml:"two_way"`   // dyads: both of the pair write and report
	Stances   string   `toml:"stances"`   // sim: how agents' stances are assigned
	Weight    float64  `toml:"weight"`    // dyads: DeGroot weight w
	Mu        float64  `toml:"mu"`        // dyads: Deffuant mu
	Epsilon   float64  `toml:"epsilon"`   // dyads: Deffuant confidence bound
	// ConfirmationBias is none, weak or strong (Opinion dynamics): an
	// instruction in a language-model persona; for the offline dyads
	// agents, an update weight that falls with disagreement.
	ConfirmationBias string `toml:"confirmation_bias"`
	// Control is none, no-interaction (nobody writes; each step one drawn
	// agent reports its belief) or no-role-play (no-interaction, and the
	// agents have no persona or initial belief): dyads.
	Control string `toml:"control"`
	// Memory is cumulative (every experience kept) or reflective (a compact
	// summary rewritten after each experience): dyads.
	Memory string `toml:"memory"`
	// Framing is true or false when the claim is one of the built-in
	// claims (Claim) or labels a given question; "" for none: dyads.
	Framing string `toml:"framing"`
	// Claim names a built-in claim (dyads.Claims); its framing gives the
	// question.
	Claim string `toml:"claim"`
	// ClosedWorld tells language-model personas they cannot look anything
	// up (the paper's closed-world restriction): dyads.
	ClosedWorld bool `toml:"closed_world"`
	// BeliefReport is verbal (a model listener's words, mapped to -2..2
	// by the opinion classifier) or self (the number it reports): dyads.
	BeliefReport string `toml:"belief_report"`
	// Complement is a chatroom statement's complement: personas below
	// neutral agree with it rather than disagree with the statement.
	Complement string `toml:"complement"`
	// ContextChars is each chatroom model agent's memory: the recent
	// messages that fit in this many characters (0: the agent's default).
	ContextChars int `toml:"context_chars"`
	// PersonaUpdate is how each chatroom model agent's persona follows its
	// messages: signal, signal:ENDPOINT, lexicon or none.
	PersonaUpdate string `toml:"persona_update"`
	// Speaking is in-turn (the judges speak one at a time, each reading
	// those before) or simultaneous (sealed until all have spoken): panel.
	Speaking string `toml:"speaking"`
	// Alphas and Tolerances are sim's --alpha and --tolerance lists: more
	// than one value runs the panel over their grid (protocol.Grid).
	Alphas     []float64 `toml:"-"`
	Tolerances []float64 `toml:"-"`
	// Temperatures are sim's --temperature list (panel, --agent llm): the
	// models' sampling temperature, a third axis of the grid.
	Temperatures []float64 `toml:"-"`
}

// protocolDefaults are the papers' defaults.
func protocolDefaults() ProtocolSettings {
	return ProtocolSettings{Protocol: roundtable.ProtocolRoundTable, Items: []string{}, Alpha: sentiment.DefaultAlpha, Tolerance: sentiment.DefaultTolerance,
		Stances: "uniform", Weight: 0.5, Mu: 0.3, Epsilon: 1, ConfirmationBias: "none", Control: dyads.ControlNone, Memory: dyads.MemoryCumulative, BeliefReport: dyads.ReportVerbal, PersonaUpdate: chatroom.PersonaSignal, Speaking: panel.SpeakInTurn}
}

func (p *ProtocolSettings) register(fl *pflag.FlagSet) {
	fl.StringVar(&p.Protocol, "protocol", "", "schedule: roundtable, panel, chatroom, questionnaire (the chatroom's baseline) or dyads (default from [sim], roundtable)")
	fl.StringVar(&p.Question, "question", "", "the statement (chatroom), claim (dyads) or brief (panel)")
	fl.StringSliceVar(&p.Items, "items", nil, "panel: the items to evaluate, comma-separated")
	fl.Float64SliceVar(&p.Alphas, "alpha", nil, "panel: weight of the newest opinion in the sentiment update (default 0.5); a comma list runs a grid with --tolerance")
	fl.Float64SliceVar(&p.Tolerances, "tolerance", nil, "panel: stop when every sentiment moves less than this (default 1e-5); a comma list runs a grid with --alpha")
	fl.Float64SliceVar(&p.Temperatures, "temperature", nil, "panel with --agent llm: the models' sampling temperature (default each [[llm]]'s own); a comma list is a third axis of the grid with --alpha and --tolerance")
	fl.StringVar(&p.Speaking, "speaking", "", "panel: in-turn (the judges speak one at a time in seat order, each reading those before) or simultaneous (every opinion sealed until all have spoken) (default in-turn)")
	fl.BoolVar(&p.TwoWay, "two-way", false, "dyads: both of the pair write and report (implied by --agent deffuant)")
	fl.StringVar(&p.Stances, "stances", "", "agents' stances: uniform, continuous, skewed, mixed, echo:LEVEL or a comma list of -2..2 (default uniform)")
	fl.Float64Var(&p.Weight, "weight", 0, "dyads: DeGroot weight w (default 0.5)")
	fl.Float64Var(&p.Mu, "mu", 0, "dyads: Deffuant mu (default 0.3)")
	fl.Float64Var(&p.Epsilon, "epsilon", 0, "dyads: Deffuant confidence bound epsilon (default 1)")
	fl.StringVar(&p.ConfirmationBias, "confirmation-bias", "", "dyads: none, weak or strong confirmation bias (an instruction to a model; a weight falling with disagreement offline) (default none)")
	fl.StringVar(&p.Control, "control", "", "dyads: none, no-interaction (each step one drawn agent reports, nobody writes) or no-role-play (no interaction, no persona) (default none)")
	fl.StringVar(&p.Memory, "memory", "", "dyads: cumulative or reflective memory (default cumulative)")
	fl.StringVar(&p.Framing, "framing", "", "dyads: true or false framing of --claim, or the label of --question's framing")
	fl.StringVar(&p.BeliefReport, "belief-report", "", "dyads: how a model listener reports its belief: verbal (in words, mapped to -2..2 by the opinion classifier) or self (the number it states) (default verbal)")
	fl.BoolVar(&p.ClosedWorld, "closed-world", false, "dyads: tell model personas they cannot look anything up (model-free agents never can)")
	fl.StringVar(&p.Claim, "claim", "", "dyads: a built-in claim ("+strings.Join(dyads.ClaimNames(), ", ")+"); --framing picks its true or false statement")
	fl.StringVar(&p.Complement, "complement", "", "chatroom: the statement's complement, which personas below neutral agree with (default \"It is not the case that ...\")")
	fl.IntVar(&p.ContextChars, "context-chars", 0, "chatroom: a model agent's memory, the recent messages that fit in this many characters (default 16000)")
	fl.StringVar(&p.PersonaUpdate, "persona-update", "", "chatroom with --agent llm: after each message a model agent's persona is rewritten at the level the opinion signal reads in it: signal (a model: the seat's endpoint, or signal:ENDPOINT), lexicon (the offline keyword classifier) or none (the assigned persona throughout) (default signal)")
}

// fill takes unset flags from the config.
func (p *ProtocolSettings) fill(changed func(string) bool, c ProtocolSettings) {
	pick(changed, "protocol", &p.Protocol, c.Protocol)
	pick(changed, "question", &p.Question, c.Question)
	pick(changed, "stances", &p.Stances, c.Stances)
	pick(changed, "confirmation-bias", &p.ConfirmationBias, c.ConfirmationBias)
	p.Alpha, p.Alphas = gridAxis(changed("alpha"), p.Alphas, c.Alpha)
	p.Tolerance, p.Tolerances = gridAxis(changed("tolerance"), p.Tolerances, c.Tolerance)
	pick(changed, "weight", &p.Weight, c.Weight)
	pick(changed, "mu", &p.Mu, c.Mu)
	pick(changed, "epsilon", &p.Epsilon, c.Epsilon)
	pick(changed, "items", &p.Items, c.Items)
	pick(changed, "two-way", &p.TwoWay, c.TwoWay)
	pick(changed, "control", &p.Control, c.Control)
	pick(changed, "memory", &p.Memory, c.Memory)
	pick(changed, "framing", &p.Framing, c.Framing)
	pick(changed, "claim", &p.Claim, c.Claim)
	pick(changed, "closed-world", &p.ClosedWorld, c.ClosedWorld)
	pick(changed, "belief-report", &p.BeliefReport, c.BeliefReport)
	pick(changed, "complement", &p.Complement, c.Complement)
	pick(changed, "speaking", &p.Speaking, c.Speaking)
	pick(changed, "context-chars", &p.ContextChars, c.ContextChars)
	pick(changed, "persona-update", &p.PersonaUpdate, c.PersonaUpdate)
}

// pick sets *dst to the configured v unless the flag name was given.
func pick[T any](changed func(string) bool, name string, dst *T, v T) {
	if !changed(name) {
		*dst = v
	}
}

// protocol builds the schedule; key names the config section or flag in
// errors.
func (p ProtocolSettings) protocol(key string) (*roundtable.Protocol, error) {
	return protocol.Build(p.settings(key))
}

// settings are the protocol settings given at key ("--protocol" for
// sim's flags, else the config key of the protocol).
func (p ProtocolSettings) settings(key string) protocol.Settings {
	return protocol.Settings{Key: key, Protocol: p.Protocol, Question: p.Question, Items: p.Items,
		Alpha: p.Alpha, Tolerance: p.Tolerance, Alphas: p.Alphas, Tolerances: p.Tolerances, Temperatures: p.Temperatures,
		TwoWay: p.TwoWay, Stances: p.Stances, Weight: p.Weight, Mu: p.Mu, Epsilon: p.Epsilon, ConfirmationBias: p.ConfirmationBias,
		Control: p.Control, Memory: p.Memory, Framing: p.Framing, Claim: p.Claim, ClosedWorld: p.ClosedWorld, BeliefReport: p.BeliefReport,
		Complement: p.Complement, ContextChars: p.ContextChars, PersonaUpdate: p.PersonaUpdate, Speaking: p.Speaking}
}

// gridAxis is one axis of the panel's parameter grid: the values given on
// the command line, else the configured one. The first value is the
// setting of a run without a grid.
func gridAxis(given bool, values []float64, configured float64) (float64, []float64) {
	if !given || len(values) == 0 {
		return configured, []float64{configured}
	}
	return values[0], values
}

// panelFlags are sim's flags of the evaluation panel beyond the protocol
// settings: the judges' roles and the items' source documents.
type panelFlags struct {
	roles   []string
	itemDir string
}

func (p *panelFlags) register(fl *pflag.FlagSet) {
	fl.StringSliceVar(&p.roles, "roles", nil, "panel: the judges' roles, comma-separated, one per agent (default CFO, VP of Engineering, Plant Manager, ...); each judge's mental model of self is made from its role")
	fl.StringVar(&p.itemDir, "item-dir", "", "panel: a directory with one text file per item (NAME.txt or NAME.md), the item's source document, shown to the judges and used for defensibility; its files name the items unless --items is given")
}
