package roundtable

import "slices"

// SurveyAnswer is one participant's self-report in a survey phase.
type SurveyAnswer struct {
	By     string    `json:"by"`
	Values []float64 `json:"values"`
	Reason string    `json:"reason,omitempty"`
	// Persona is the chatroom persona the answer was given with, private
	// like Reason.
	Persona *OpinionPersona `json:"persona,omitempty"`
}

// Report is an answer of the survey phase: one value per item of the
// phase's scale. It is private to its author.
type Report struct {
	Actor, Key string
	Values     []float64
	Reason     string // optional, private like the values
	Usage      *Usage
	// Persona is the chatroom persona the answer was given with (its
	// Signal nil), private like Reason.
	Persona *OpinionPersona
}

// Who implements Action.
func (a Report) Who() (string, string) { return a.Actor, a.Key }

func (a Report) with(actor, key string) Action { a.Actor, a.Key = actor, key; return a }

func (a Report) decide(s *State, _ Task) ([]Payload, error) {
	if err := s.mayAct(a.Actor, PhaseSurvey); err != nil {
		return nil, err
	}
	if err := s.checkReport(a); err != nil {
		return nil, err
	}
	if a.Persona != nil {
		if err := a.Persona.Check(); err != nil {
			return nil, err
		}
	}
	return []Payload{SurveyAnswered{Round: s.Round, Values: slices.Clone(a.Values), Reason: a.Reason, Usage: a.Usage, Persona: a.Persona.clone()}}, nil
}

// checkReport checks what a report says against the open survey's scale.
func (s *State) checkReport(a Report) error {
	sc := s.Scale()
	if sc == nil {
		return Errorf(Conflict, "no survey is open")
	}
	if err := sc.Check(a.Values); err != nil {
		return err
	}
	if a.Reason != "" {
		return CheckText(a.Reason)
	}
	return nil
}

// Scale returns the scale of the open survey phase, or nil.
func (s *State) Scale() *Scale {
	if s.Phase != PhaseSurvey || s.Config.Protocol == nil {
		return nil
	}
	st, _ := s.Config.Protocol.Step(s.Step)
	return st.Scale
}

// surveyScale is the open survey's scale, else the first one the schedule
// asks.
func (s *State) surveyScale() *Scale {
	if sc := s.Scale(); sc != nil {
		return sc
	}
	for st := range s.Config.Protocol.Steps() {
		if st.Scale != nil {
			return st.Scale
		}
	}
	return nil
}

// HasTurn reports whether participant id may act in the open phase as far
// as the schedule's speaker policy and the participant's parts go.
func (s *State) HasTurn(id string) bool {
	return (len(s.Turn) == 0 || slices.Contains(s.Turn, id)) && s.playsOpen(id)
}

// Answers returns the survey answers of round r (1-based) by participant,
// leaving out those of agents with no opinion model (IsNoOpinion): the
// stop rules and the measures built on them read views, and the middle
// of the scale given for want of one is none.
func (s *State) Answers(r int) map[string][]float64 {
	out := map[string][]float64{}
	if r < 1 || r > len(s.Rounds) {
		return out
	}
	for _, a := range s.Rounds[r-1].Surveys {
		if !IsNoOpinion(a.Reason) {
			out[a.By] = a.Values
		}
	}
	return out
}

// checkReport checks a report against the open survey under the table's
// lock, for runners that turn a bad answer into a recorded failure.
func (t *Table) checkReport(a Report) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state.checkReport(a)
}

// private drops from r what only others may see: their survey answers and
// private messages not addressed to id.
func (r RoundRecord) private(id string) RoundRecord {
	r.Surveys = slices.DeleteFunc(slices.Clone(r.Surveys), func(a SurveyAnswer) bool { return a.By != id })
	r.Messages = slices.DeleteFunc(slices.Clone(r.Messages), func(m Message) bool {
		return m.Private && m.From != id && !slices.Contains(m.To, id)
	})
	return r
}
