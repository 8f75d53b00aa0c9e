package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// verbSelf prefixes the one-click survey buttons' verbs: "self2" ..
// "self-2", the value answered.
const verbSelf = "self"

// maxLevelButtons bounds the levels a survey offers as one-click buttons;
// a finer scale is answered with the form alone.
const maxLevelButtons = 7

// Decision: a self-report is an answer of the survey phase (docs/protocol.md#live-audit), which an audited table asking for self-reports schedules at
// the end of every round (roundtable.Config's schedule gains it when the
// table is created). A survey with one value on a few labelled levels
// (the five stance levels) is answered with one click; the click is a
// roundtable.Report like the form's answer, so there is one path: a
// SurveyAnswered event, private to its author and the organiser's export.

// levelButtons are one button per level of the open survey's scale,
// highest first (see buttonLevels).
func levelButtons(s *roundtable.State, r ref) []Control {
	sc := s.Scale()
	n := buttonLevels(sc)
	if n == 0 {
		return nil
	}
	controls := make([]Control, 0, n)
	for i := n - 1; i >= 0; i-- {
		v := sc.Min + float64(i)*sc.Step
		controls = append(controls, Control{ID: withVerb(r, verbSelf+strconv.FormatFloat(v, 'g', -1, 64)), Kind: Button, Label: clip(levelLabel(sc, v), 80)})
	}
	return controls
}

// buttonLevels is how many levels of sc are offered as buttons: all of
// them when it asks one value on at most maxLevelButtons steps, else 0.
func buttonLevels(sc *roundtable.Scale) int {
	if sc == nil || sc.Values() != 1 || sc.Step <= 0 {
		return 0
	}
	if n := int((sc.Max-sc.Min)/sc.Step+1e-9) + 1; n <= maxLevelButtons {
		return n
	}
	return 0
}

// levelLabel names value v of sc: its level's label, else the number.
func levelLabel(sc *roundtable.Scale, v float64) string {
	if sc != nil && sc.Step > 0 {
		if i := int((v-sc.Min)/sc.Step + 0.5); i >= 0 && i < len(sc.Labels) {
			return levelWords(sc.Labels[i])
		}
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// levelOf reads a level button's verb: the value it answers.
func levelOf(verb string) (float64, bool) {
	raw, ok := strings.CutPrefix(verb, verbSelf)
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(raw, 64)
	return v, err == nil
}

// report records a one-click survey answer of round; the table refuses
// it, with the reason, outside its survey phase or from someone who
// already answered.
func (lt *live) report(ctx context.Context, ev *Event, round int, v float64) (*Reply, error) {
	var label string
	lt.table.Read(func(s *roundtable.State) { label = levelLabel(s.Scale(), v) })
	who := ParticipantID(ev.Platform, ev.User.ID)
	if err := lt.act(ctx, roundtable.Report{Actor: who, Key: "survey:" + ev.ID, Values: []float64{v}}); err != nil {
		return nil, err
	}
	return ephemeral(fmt.Sprintf("Recorded privately for round %d: %s. Only you and the organiser's export see it.", round, label)), nil
}
