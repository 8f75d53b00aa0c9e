package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
)

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

// notPanel refuses the panel's flags in other experiments.
func (f simFlags) notPanel() error {
	switch {
	case len(f.panel.roles) > 0:
		return usagef("--roles: only the panel seats judges by role (--protocol panel)")
	case f.panel.itemDir != "":
		return usagef("--item-dir: only the panel evaluates items (--protocol panel)")
	case len(f.proto.Alphas) > 1 || len(f.proto.Tolerances) > 1:
		return usagef("--alpha/--tolerance: a grid of values needs --protocol panel")
	}
	return nil
}

// defaultRoles seat a panel when --roles is not given.
var defaultRoles = []string{"CFO", "VP of Engineering", "Plant Manager", "HR Director", "Head of Sales", "Data Lead", "Legal Counsel"}

// panelExperiment is the evaluation panel over its α/tolerance grid, with
// judges seated by role, the items' source documents in the task, and the
// quality metrics measured per run.
func (a *App) panelExperiment(cfg Config, f simFlags) (*experiment, error) {
	docs, err := readItemDocs(&f)
	if err != nil {
		return nil, err
	}
	roles, err := panelRoles(f.panel.roles, f.agents)
	if err != nil {
		return nil, err
	}
	cells, err := f.proto.grid()
	if err != nil {
		return nil, err
	}
	pr, err := f.proto.protocol("--protocol") // the items may come from --item-dir
	if err != nil {
		return nil, usageError{err}
	}
	base, err := a.protocolExperiment(cfg, f, pr)
	if err != nil {
		return nil, err
	}
	meter, err := panel.NewMeter(nil)
	if err != nil {
		return nil, err
	}
	task := panelTask{TextTask: roundtable.TextTask{Topic: question(f)}, items: f.proto.Items, docs: docs}
	base.task = func(int, int64) (roundtable.Task, error) { return task, nil }
	base.seats = panelSeats(roles, f.agent)
	base.measure = measurePanelQuality(meter)
	base.units = withUnits(base.units, panelQualityUnits)
	if len(cells) == 1 {
		return base, base.useCell(f, cells[0], meter, docs, "")
	}
	for _, c := range cells {
		v := *base
		if err := v.useCell(f, c, meter, docs, c.label()); err != nil {
			return nil, err
		}
		base.grid = append(base.grid, &v)
	}
	grid := *pr // the summary's schedule: each cell has its own alpha
	grid.Params = nil
	base.protocol = &grid
	return base, nil
}

// useCell sets the cell's schedule (tolerance, and alpha in its
// parameters, which language-model judges read) and, for offline judges,
// agents (alpha); label names the cell ("" without a grid).
func (e *experiment) useCell(f simFlags, c gridCell, meter *panel.Meter, docs map[string]string, label string) error {
	ps := f.proto
	ps.Alpha, ps.Tolerance = c.alpha, c.tolerance
	pr, err := ps.protocol("--protocol")
	if err != nil {
		return usageError{err}
	}
	e.protocol, e.cell = pr, label
	if label != "" {
		e.name += "-" + label
	}
	if f.agent != "evaluator" {
		return nil // language models: the schedule's alpha and tolerance are the cell
	}
	passages := map[string][]string{}
	for it, doc := range docs {
		passages[it] = meter.Passages(doc)
	}
	ev := &panel.Evaluator{Vader: sentiment.NewVader(), Alpha: c.alpha, Passages: passages}
	e.agents = eachSeat(func(roundtable.Task, roundtable.Participant) (roundtable.Agent, error) { return ev, nil })
	return nil
}

// panelRoles are one role per agent: --roles, or the first of defaultRoles.
func panelRoles(given []string, agents int) ([]string, error) {
	if len(given) == 0 {
		out := make([]string, agents)
		for i := range out {
			out[i] = defaultRoles[i%len(defaultRoles)]
			if i >= len(defaultRoles) {
				out[i] += fmt.Sprintf(" %d", i/len(defaultRoles)+1)
			}
		}
		return out, nil
	}
	if len(given) != agents {
		return nil, usagef("--roles: %d roles for %d agents (--agents); give one role per judge", len(given), agents)
	}
	for i, r := range given {
		if strings.TrimSpace(r) == "" || slices.Contains(given[:i], r) {
			return nil, usagef("--roles: role %d (%q) is empty or given twice", i+1, r)
		}
	}
	return given, nil
}

// panelSeats seats one judge per role: its name is the role, from which
// its mental model of self is made.
func panelSeats(roles []string, agent string) func(int, int64, int) ([]roundtable.Participant, error) {
	return func(_ int, _ int64, k int) ([]roundtable.Participant, error) {
		ps := make([]roundtable.Participant, k)
		for i := range ps {
			ps[i] = roundtable.Participant{ID: fmt.Sprintf("agent-%d", i+1), Name: roles[i], Kind: roundtable.Bot, Agent: agent,
				Background: fmt.Sprintf("You are the %s on this evaluation panel.", roles[i])}
		}
		return ps, nil
	}
}

// readItemDocs reads --item-dir: one document per item. Without --items
// the files name the items (in name order); with it every item needs a
// file.
func readItemDocs(f *simFlags) (map[string]string, error) {
	dir := f.panel.itemDir
	if dir == "" {
		return nil, nil
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		return nil, usagef("--item-dir: %v", err)
	}
	docs := map[string]string{}
	var names []string
	for _, fi := range files {
		ext := filepath.Ext(fi.Name())
		if fi.IsDir() || (ext != ".txt" && ext != ".md") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, fi.Name()))
		if err != nil {
			return nil, usagef("--item-dir: %v", err)
		}
		name := strings.TrimSuffix(fi.Name(), ext)
		if err := roundtable.CheckText(string(b)); err != nil {
			return nil, usagef("--item-dir: %s: %s", filepath.Join(dir, fi.Name()), roundtable.ErrorMessage(err))
		}
		docs[name] = string(b)
		names = append(names, name)
	}
	if len(f.proto.Items) == 0 {
		if len(names) == 0 {
			return nil, usagef("--item-dir: %s holds no .txt or .md file", dir)
		}
		f.proto.Items = names
	}
	for _, it := range f.proto.Items {
		if _, ok := docs[it]; !ok {
			return nil, usagef("--item-dir: item %q has no document (%s.txt or %s.md in %s)", it, it, it, dir)
		}
	}
	return docs, nil
}

// panelTask is the panel's brief with the items' source documents, which
// the table's config records (task parameters doc/ITEM) for defensibility.
type panelTask struct {
	roundtable.TextTask
	items []string
	docs  map[string]string
}

// Brief implements roundtable.Task.
func (t panelTask) Brief() string {
	var b strings.Builder
	b.WriteString("Evaluate together: " + t.Topic + "\nItems: " + strings.Join(t.items, ", ") + ".\n")
	for _, it := range t.items {
		if doc, ok := t.docs[it]; ok {
			fmt.Fprintf(&b, "\n## %s\n%s\n", it, strings.TrimSpace(doc))
		}
	}
	return b.String()
}

// Spec records the brief and the documents.
func (t panelTask) Spec() roundtable.TaskSpec {
	params := map[string]string{}
	for it, doc := range t.docs {
		params[panel.DocParam+it] = doc
	}
	return roundtable.TaskSpec{Kind: t.Kind(), Topic: t.Topic, Params: params}
}
