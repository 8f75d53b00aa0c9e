package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
)

// OpinionSignal is Conversational bias's opinion presence and opinion
// signal agents (section 3.2) as a chatroom agent's persona updates use
// them (section 3.1): Signal reads one message, with no history, relative
// to a statement and its complement ("" for the statement's opposite):
// whether it expresses an opinion and, if so, at which of the five levels
// (-2..2). Implementations must be safe for concurrent use.
type OpinionSignal interface {
	Signal(ctx context.Context, statement, complement, text string) (level int, present bool, err error)
	// Model names the classifier in the log and the provenance.
	Model() string
}

// chatroomPersona is who a chatroom agent is now, stated as
// Conversational bias states it (statedPersona).
func chatroomPersona(v roundtable.View) string {
	text, _, _ := statedPersona(v)
	return text
}

// statedPersona is who a chatroom agent is, stated as Conversational bias
// states it, and the level its opinion is stated at. A seat made for the
// paper (sim --agent llm) carries that persona as its background already.
// A live table's agent with a stance (an [[agent]] preset) gets one
// composed from the table's statement and its stance, with its background
// and goal kept after it. After a message whose opinion signal read
// another level (roundtable.OpinionPersona.Next), the opinion, its
// elaboration and its example are rewritten at that level; the name, the
// setting and any further instruction stay. An agent with no stance
// keeps its plain persona (ok false).
func statedPersona(v roundtable.View) (text string, level float64, ok bool) {
	me := PersonaOf(v.Self)
	x, err := opinion.ParseStance(me.Stance)
	if err != nil {
		return personaText(me), 0, false
	}
	assigned := opinion.Round(x)
	level = assigned
	if p := roundtable.LatestPersona(v.SoFar(), v.Self.ID); p != nil {
		level = p.Next()
	}
	statement, complement := "", v.Params["complement"]
	if v.Scale != nil {
		statement = strings.TrimSpace(v.Scale.Question)
	}
	if opinion.IsChatPersona(me.Background) {
		if level != assigned {
			at := opinion.ChatPersona{Name: me.Name, Statement: statement, Complement: complement, Level: assigned}.Text()
			if !strings.Contains(me.Background, at) {
				return personaText(me), assigned, true // a persona written by hand: nothing to rewrite
			}
			now := opinion.ChatPersona{Name: me.Name, Statement: statement, Complement: complement, Level: level}.Text()
			me.Background, me.Stance = strings.Replace(me.Background, at, now, 1), fmt.Sprintf("%g", level)
		}
		return personaText(me), level, true
	}
	if statement == "" {
		return personaText(me), level, false
	}
	text = opinion.ChatPersona{Name: me.Name, Statement: statement, Complement: complement, Level: level}.Text()
	for _, kv := range [][2]string{{"Background", me.Background}, {"Goal", me.Goal}} {
		if strings.TrimSpace(kv[1]) != "" {
			text += "\n" + kv[0] + ": " + strings.TrimSpace(kv[1])
		}
	}
	return text, level, true
}

// withPersona records, on a chatroom agent's message or survey answer,
// the persona it was written with and, for a message, when the agent's persona follows the opinion signal,
// what the signal reads in it. A classifier that fails or runs out of
// time is recorded as missing and the persona stays; the message is
// posted all the same.
func (a *Agent) withPersona(ctx context.Context, v roundtable.View, act roundtable.Action) roundtable.Action {
	if briefingOf(v).Persona != roundtable.PersonaStance {
		return act
	}
	text, level, ok := statedPersona(v)
	if !ok {
		return act
	}
	if rep, isReport := act.(roundtable.Report); isReport {
		rep.Persona = &roundtable.OpinionPersona{Level: level, Text: text}
		return rep
	}
	say, isSay := act.(roundtable.Say)
	if !isSay {
		return act
	}
	say.Persona = &roundtable.OpinionPersona{Level: level, Text: text}
	if a.opt.Signal != nil && v.Scale != nil && strings.TrimSpace(v.Scale.Question) != "" {
		say.Persona.Signal = a.signal(ctx, v, say.Text)
	}
	return say
}

// signal asks the opinion signal about text within half the time left
// to act, so that a slow classifier leaves the message time to be posted.
func (a *Agent) signal(ctx context.Context, v roundtable.View, text string) *roundtable.OpinionSignal {
	if deadline, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Until(deadline)/2)
		defer cancel()
	}
	out := &roundtable.OpinionSignal{Classifier: a.opt.Signal.Model()}
	level, present, err := a.opt.Signal.Signal(ctx, v.Scale.Question, v.Params["complement"], text)
	switch {
	case err != nil:
		out.Missing = err.Error()
		a.log.Warn("opinion signal failed; the persona stays", "table", v.Table, "participant", v.Self.ID, "err", err)
	case level < -2 || level > 2:
		out.Missing = fmt.Sprintf("the classifier answered level %d, not one of -2..2", level)
	default:
		out.Present, out.Level = present, float64(level)
	}
	return out
}
