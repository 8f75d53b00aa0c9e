package web

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// The JSON the room page receives: what the live stream sends and the
// feed endpoint returns. HTML fields are rendered here from escaped text;
// every other string is data the page shows with textContent.

// update is one message of the live stream.
type update struct {
	Cursor  string     `json:"cursor"`
	Posts   []postView `json:"posts,omitempty"`
	Private []privView `json:"private,omitempty"`
	State   *stateView `json:"state,omitempty"`
}

type postView struct {
	ID       string        `json:"id"`
	N        int           `json:"n"`
	Kind     string        `json:"kind"` // bot, agent or user
	Author   string        `json:"author"`
	Text     string        `json:"text"`
	HTML     template.HTML `json:"html"`
	Time     string        `json:"time"`
	Controls []controlView `json:"controls,omitempty"`
}

type controlView struct {
	ID      string       `json:"id"`
	Kind    string       `json:"kind"` // button, select or multi (checkboxes)
	Label   string       `json:"label"`
	Options []optionView `json:"options,omitempty"`
	Min     int          `json:"min,omitempty"`
	Primary bool         `json:"primary,omitempty"`
}

type optionView struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

func viewOptions(opts []bot.Option) []optionView {
	out := make([]optionView, len(opts))
	for i, o := range opts {
		out[i] = optionView{Value: o.Value, Label: o.Label}
	}
	return out
}

type privView struct {
	ID   string        `json:"id"`
	Kind string        `json:"kind"` // text, form or file
	Text string        `json:"text,omitempty"`
	HTML template.HTML `json:"html,omitempty"`
	Form *formView     `json:"form,omitempty"`
	File *fileView     `json:"file,omitempty"`
	// Waiting is set on a text told while the table waited to start;
	// the page drops it once the table has started.
	Waiting bool `json:"waiting,omitempty"`
}

type fileView struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

type formView struct {
	ID     string      `json:"id"`
	Title  string      `json:"title"`
	Fields []fieldView `json:"fields"`
	Budget int         `json:"budget,omitempty"` // points to share out (cumulative ballots)
	Unique bool        `json:"unique,omitempty"` // selects must differ (rankings)
	// Candidates, in a ballot form, are what each letter stands for.
	Candidates []candView `json:"candidates,omitempty"`
}

type fieldView struct {
	ID          string       `json:"id"`
	Label       string       `json:"label"`
	Input       string       `json:"input"` // text, textarea, select, number, levels (buttons) or slider
	Placeholder string       `json:"placeholder,omitempty"`
	Value       string       `json:"value,omitempty"`
	Optional    bool         `json:"optional,omitempty"`
	MaxLen      int          `json:"maxlen,omitempty"`
	Options     []optionView `json:"options,omitempty"`
	// Min, Max and Step bound a slider's value (a survey's scale).
	Min  float64 `json:"min,omitempty"`
	Max  float64 `json:"max,omitempty"`
	Step float64 `json:"step,omitempty"`
}

func viewPost(p post) postView {
	v := postView{ID: p.ID, N: p.N, Kind: p.Kind, Author: p.Author, Text: p.Text, HTML: renderMarkdown(p.Text),
		Time: p.Time.UTC().Format("15:04")}
	for _, c := range p.Controls {
		v.Controls = append(v.Controls, viewControl(c))
	}
	return v
}

func viewControl(c bot.Control) controlView {
	kind := "button"
	if c.Kind == bot.Select {
		kind = "select"
		if c.Max > 1 {
			kind = "multi"
		}
	}
	return controlView{ID: c.ID, Kind: kind, Label: c.Label, Options: viewOptions(c.Options), Min: c.Min, Primary: c.Primary}
}

func viewPrivate(boot string, it privItem, room string) privView {
	v := privView{ID: fmt.Sprintf("%s-%d", boot, it.Seq), Kind: it.Kind, Text: it.Text, Form: it.Form, Waiting: it.Waiting}
	if it.Text != "" {
		v.HTML = renderMarkdown(it.Text)
	}
	if it.Kind == privFile {
		v.File = &fileView{Name: it.File, URL: fmt.Sprintf("/r/%s/files/%d", room, it.Seq)}
	}
	return v
}

// viewForm turns a bot form into the page's dialog; budget > 0 marks the
// fields that are candidates as point inputs of a cumulative ballot.
func viewForm(f bot.Form, budget int, candidates map[string]bool) *formView {
	v := &formView{ID: f.ID, Title: f.Title}
	for _, fl := range f.Fields {
		fv := fieldView{ID: fl.ID, Label: fl.Label, Input: "text", Placeholder: fl.Placeholder, Value: fl.Value,
			Optional: fl.Optional, MaxLen: fl.MaxLen, Options: viewOptions(fl.Options)}
		switch {
		case len(fl.Options) > 0:
			fv.Input = "select"
			v.Unique = v.Unique || strings.HasPrefix(fl.ID, "rank")
		case fl.Long:
			fv.Input = "textarea"
		case budget > 0 && candidates[fl.ID], fl.Placeholder == "0" && fl.MaxLen > 0 && fl.MaxLen <= 3:
			fv.Input = "number"
		}
		v.Fields = append(v.Fields, fv)
	}
	if budget > 0 {
		v.Budget = budget
	}
	return v
}

// answerScale makes the fields of survey form v answer scale sc as a
// person would on a phone: one button per level of a scale with a few
// named levels (the five stance levels), else a slider from its Min to
// its Max, in steps of its Step or of a fortieth of its span.
func answerScale(v *formView, sc *roundtable.Scale) {
	if sc == nil {
		return
	}
	levels := sc.Step > 0 && len(sc.Labels) > 0 && (sc.Max-sc.Min)/sc.Step < maxLevels
	for i := range v.Fields {
		f := &v.Fields[i]
		if levels {
			f.Input, f.Options = "levels", nil
			for k := len(sc.Labels) - 1; k >= 0; k-- { // highest first, as the bot's buttons
				x := sc.Min + float64(k)*sc.Step
				if x <= sc.Max+1e-9 {
					f.Options = append(f.Options, optionView{Value: strconv.FormatFloat(x, 'g', -1, 64), Label: bot.LevelWords(sc.Labels[k])})
				}
			}
			continue
		}
		f.Input, f.Min, f.Max, f.Step = "slider", sc.Min, sc.Max, sc.Step
		if f.Step <= 0 {
			f.Step = (sc.Max - sc.Min) / 40
		}
	}
}

// maxLevels bounds the levels a survey offers as buttons.
const maxLevels = 7

// isSurvey reports whether form ID id is a table's survey form.
func isSurvey(id string) bool { return strings.HasSuffix(id, ":survey") }

// cursor is how far a page has seen: the room's version, and the private
// items of this process (boot) up to Priv. A page that saw another
// process's items gets all of this one's.
type cursor struct {
	Ver  uint64
	Priv uint64
	Boot string
}

func (c cursor) String() string { return fmt.Sprintf("%d.%d.%s", c.Ver, c.Priv, c.Boot) }

// parseCursor reads a cursor; anything unreadable is the start.
func parseCursor(s string) cursor {
	parts := strings.SplitN(s, ".", 3)
	if len(parts) != 3 {
		return cursor{}
	}
	ver, err1 := strconv.ParseUint(parts[0], 10, 64)
	priv, err2 := strconv.ParseUint(parts[1], 10, 64)
	if err1 != nil || err2 != nil || !validID(parts[2]) {
		return cursor{}
	}
	return cursor{Ver: ver, Priv: priv, Boot: parts[2]}
}
