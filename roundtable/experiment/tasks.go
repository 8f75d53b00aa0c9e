package experiment

import (
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
	deliberation "github.com/roundtable-ai/roundtable/roundtable/protocol/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	"github.com/roundtable-ai/roundtable/roundtable/task/recommend"
)

// taskDesign is the design of RoundTable's protocol on one of its tasks:
// the exchange economy with rule-based traders, the recommendation task
// with the model-free baselines, or any task with language models.
func (e *Experiment) taskDesign() error {
	o := e.opt
	if e.agent == "" {
		e.agent = "utility"
	}
	var d *Design
	var err error
	switch e.agent {
	case "utility":
		if o.Task != "exchange" {
			return invalid("--task %s needs language-model agents (--agent llm) or, for recommendation, --agent baseline; utility agents only play the exchange economy", o.Task)
		}
		d, err = e.exchangeUtility()
	case "llm":
		d, err = e.modelTask()
	case "baseline":
		if o.Task != "recommendation" {
			return invalid("--agent baseline plays the recommendation task only (--task recommendation)")
		}
		d, err = e.recommendBaseline()
	default:
		return invalid("--agent: %q is not utility, baseline or llm", e.agent)
	}
	if err != nil {
		return err
	}
	e.designs = []*Design{d}
	return nil
}

// exchangeTask is the exchange economy of the options, solved once
// before the tables share it.
func (e *Experiment) exchangeTask() (*exchange.Task, error) {
	task, err := exchange.NewTask(e.opt.Agents, exchange.Preset(e.opt.Preset))
	if err != nil {
		return nil, invalid("--preset: %v", err)
	}
	task.Econ.UMax()
	return task, nil
}

func (e *Experiment) exchangeUtility() (*Design, error) {
	task, err := e.exchangeTask()
	if err != nil {
		return nil, err
	}
	e.printer = exchangePrinter{}
	return &Design{Name: "exchange-utility", plan: utilityPlan{task}}, nil
}

// utilityPlan seats rule-based traders at the exchange economy.
type utilityPlan struct{ econ *exchange.Task }

func (p utilityPlan) task(int, int64) (roundtable.Task, error) { return p.econ, nil }

func (utilityPlan) seats(_ int, _ int64, k int) ([]roundtable.Participant, error) {
	return seats(k, "utility"), nil
}

func (p utilityPlan) agents(task roundtable.Task, ps []roundtable.Participant) (map[string]roundtable.Agent, error) {
	return eachSeat(task, ps, func(int, roundtable.Participant) (roundtable.Agent, error) {
		return &exchange.UtilityAgent{Task: p.econ}, nil
	})
}

func (utilityPlan) measure(t roundtable.Task, s *roundtable.State) sim.Measures {
	return deliberation.MeasureExchange(t, s)
}

// seats names k seats agent-1 .. agent-k played by agents of the kind.
func seats(k int, kind string) []roundtable.Participant {
	ps := make([]roundtable.Participant, k)
	for i := range ps {
		ps[i] = roundtable.Participant{ID: fmt.Sprintf("agent-%d", i+1), Name: fmt.Sprintf("Agent %d", i+1), Kind: roundtable.Bot, Agent: kind}
	}
	return ps
}

// modelTask plays the options' task with language models.
func (e *Experiment) modelTask() (*Design, error) {
	o := e.opt
	if o.Model == nil {
		return nil, invalid("--agent llm: no language model is configured")
	}
	seating := modelSeating{seating: e.seating(), model: o.Model}
	switch o.Task {
	case "text":
		if o.Topic == "" {
			return nil, invalid("--topic: the text task needs a question, e.g. --topic \"Which feature next?\"")
		}
		e.printer = textPrinter{}
		return &Design{Name: "text-llm", plan: textPlan{seating, roundtable.TextTask{Topic: o.Topic}}}, nil
	case "exchange":
		task, err := e.exchangeTask()
		if err != nil {
			return nil, err
		}
		e.printer = exchangePrinter{}
		return &Design{Name: "exchange-llm", plan: exchangeModelPlan{seating, task}}, nil
	case "recommendation":
		rd, err := e.loadRecommendation()
		if err != nil {
			return nil, err
		}
		e.printer = rd.printer
		return &Design{Name: "recommendation-llm", plan: recommendModelPlan{seating, rd}}, nil
	}
	return nil, invalid("--task: %q is not exchange, text or recommendation", o.Task)
}

// modelSeating seats language-model agents: the seating's bots in turn
// (numbered, when a table has more seats), or plain agents.
type modelSeating struct {
	seating
	model Model
}

func (m modelSeating) seats(_ int, _ int64, k int) ([]roundtable.Participant, error) {
	ps := seats(k, "llm")
	for i := range ps {
		m.persona(ps, i)
	}
	return ps, nil
}

func (m modelSeating) agents(task roundtable.Task, ps []roundtable.Participant) (map[string]roundtable.Agent, error) {
	return eachSeat(task, ps, func(i int, p roundtable.Participant) (roundtable.Agent, error) {
		seat, _ := m.at(i, len(ps))
		return m.model(p, task, seat.Model)
	})
}

type textPlan struct {
	modelSeating
	topic roundtable.TextTask
}

func (p textPlan) task(int, int64) (roundtable.Task, error) { return p.topic, nil }

func (textPlan) measure(t roundtable.Task, s *roundtable.State) sim.Measures {
	return deliberation.MeasureText(t, s)
}

type exchangeModelPlan struct {
	modelSeating
	econ *exchange.Task
}

func (p exchangeModelPlan) task(int, int64) (roundtable.Task, error) { return p.econ, nil }

func (exchangeModelPlan) measure(t roundtable.Task, s *roundtable.State) sim.Measures {
	return deliberation.MeasureExchange(t, s)
}

type recommendModelPlan struct {
	modelSeating
	data recommendData
}

func (p recommendModelPlan) task(i int, _ int64) (roundtable.Task, error) { return p.data.task(i), nil }

func (recommendModelPlan) measure(t roundtable.Task, s *roundtable.State) sim.Measures {
	return deliberation.MeasureRecommend(t, s)
}

// recommendBaseline runs recommendation tables with model-free agents
// (recommend.BaselineAgents): seat i plays the predictor of its private
// table, i mod 3.
func (e *Experiment) recommendBaseline() (*Design, error) {
	rd, err := e.loadRecommendation()
	if err != nil {
		return nil, err
	}
	e.printer = rd.printer
	return &Design{Name: "recommendation-baseline", plan: baselinePlan{rd}}, nil
}

type baselinePlan struct{ data recommendData }

func (p baselinePlan) task(i int, _ int64) (roundtable.Task, error) { return p.data.task(i), nil }

func (baselinePlan) seats(_ int, _ int64, k int) ([]roundtable.Participant, error) {
	return seats(k, "baseline"), nil
}

func (p baselinePlan) agents(task roundtable.Task, ps []roundtable.Participant) (map[string]roundtable.Agent, error) {
	ags := recommend.BaselineAgents(p.data.knn, task.(*recommend.Task).Case())
	m := map[string]roundtable.Agent{}
	for i, pp := range ps {
		m[pp.ID] = ags[i%3]
	}
	return m, nil
}

func (baselinePlan) measure(t roundtable.Task, s *roundtable.State) sim.Measures {
	return deliberation.MeasureRecommend(t, s)
}

// recommendData is the data of a recommendation sim: the cases and the
// baselines on them.
type recommendData struct {
	ds      *recommend.Dataset
	cases   []recommend.Case
	knn     *recommend.KNN
	printer recommendPrinter
}

func (rd recommendData) task(i int) roundtable.Task { return recommend.NewTask(rd.ds, rd.cases[i]) }

// loadRecommendation reads the data, draws a case per run and scores the
// always-4 and collaborative-filtering baselines on them.
func (e *Experiment) loadRecommendation() (recommendData, error) {
	o := e.opt
	if o.Data == "" {
		return recommendData{}, invalid("--data: the recommendation task needs the MovieLens-100k directory (u.data, u.item, u.user, u1.base, u1.test)")
	}
	ds, err := recommend.Load(o.Data)
	if err != nil {
		return recommendData{}, fmt.Errorf("--data: %w", err)
	}
	cases := recommend.Cases(ds, o.Runs, o.Seed)
	if len(cases) < o.Runs {
		return recommendData{}, invalid("--runs: the test set has only %d usable cases", len(cases))
	}
	knn := recommend.NewKNN(ds, ds.Factors(), recommend.DefaultNeighbours)
	rd := recommendData{ds: ds, cases: cases, knn: knn, printer: recommendPrinter{cases: len(cases)}}
	rd.printer.knnMAE, rd.printer.knnRMSE = recommend.Evaluate(knn, cases)
	rd.printer.fourMAE, rd.printer.fourRMSE = recommend.Evaluate(recommend.AlwaysFour, cases)
	return rd, nil
}
