package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
)

// A panel live: the items to judge, each a title and a document, come
// from the start form (item1_title, item1_document, ...) or a preset; the
// intro lists them with their documents (roundtable.BriefOf), and the end
// post ranks them by the panel's three procedures.

// maxItems bounds the items a start form gives a panel.
const maxItems = 9

// maxDocument bounds one item's document, in bytes.
const maxDocument = 20000

// panelItems reads the item options into cfg: the survey rates them and
// the task records their documents (roundtable.DocParam). A table that
// rates no items refuses them.
func panelItems(cfg *roundtable.Config, opt map[string]string) error {
	var items []string
	docs := map[string]string{}
	for i := 1; i <= maxItems; i++ {
		title := strings.TrimSpace(opt[fmt.Sprintf("item%d_title", i)])
		doc := strings.TrimSpace(opt[fmt.Sprintf("item%d_document", i)])
		switch {
		case title == "" && doc == "":
			continue
		case title == "":
			return roundtable.Errorf(roundtable.Invalid, "item%d_title: the item with a document needs a title", i)
		case len(title) > 100:
			return roundtable.Errorf(roundtable.Invalid, "item%d_title: %d bytes long, the limit is 100", i, len(title))
		case len(doc) > maxDocument:
			return roundtable.Errorf(roundtable.Invalid, "item%d_document: %d bytes long, the limit is %d", i, len(doc), maxDocument)
		case docs[title] != "" || containsFold(items, title):
			return roundtable.Errorf(roundtable.Invalid, "item%d_title: %q is given twice", i, title)
		}
		items = append(items, title)
		if doc != "" {
			docs[title] = doc
		}
	}
	if len(items) == 0 {
		return nil
	}
	pr, ok := cfg.Protocol.WithItems(items)
	if !ok {
		return roundtable.Errorf(roundtable.Invalid, "item1_title: only a panel judges items; this table's protocol is %s", cfg.Protocol)
	}
	cfg.Protocol = pr
	params := map[string]string{}
	for k, v := range cfg.Task.Params {
		if !strings.HasPrefix(k, roundtable.DocParam) { // a preset's documents go with its items
			params[k] = v
		}
	}
	for it, doc := range docs {
		params[roundtable.DocParam+it] = doc
	}
	cfg.Task.Params = params
	return nil
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// rates reports whether s is a panel's: its survey rates items.
func rates(s *roundtable.State) bool {
	return s.Config.Protocol != nil && len(s.Config.Protocol.Items()) > 0 && !s.Config.Protocol.Plays(roundtable.PhaseVote)
}

// renderRankings is a panel's end: its items ranked by each procedure.
func renderRankings(s *roundtable.State) string {
	r := panel.Outcome(s)
	if r.Judges == 0 {
		return "Nobody gave a view of the items, so there is no ranking."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Rankings of the %s by %s (best first):\n", plural(len(r.Items), "item", "items"), plural(r.Judges, "judge", "judges"))
	fmt.Fprintf(&b, "- Borda count of everyone's final views: %s\n", ranked(r.Items, r.Borda, false, points))
	fmt.Fprintf(&b, "- Tiers (1: above 0.5, 2: in between, 3: below −0.5), mean over judges: %s\n", ranked(r.Items, r.Tier, true, tier))
	fmt.Fprintf(&b, "- Gut feeling (final views less how much they wavered), Borda count: %s", ranked(r.Items, r.Gut, false, points))
	return b.String()
}

func points(x float64) string {
	if x == 1 {
		return "1 point"
	}
	return strconv.FormatFloat(x, 'g', 4, 64) + " points"
}

func tier(x float64) string { return "tier " + strconv.FormatFloat(x, 'g', 3, 64) }

// ranked writes items in the order of score: "1. Ann (6 points), 2. Ben (4 points)".
func ranked(items []string, score []float64, low bool, unit func(float64) string) string {
	order := panel.Order(score, low)
	out := make([]string, len(order))
	for k, i := range order {
		out[k] = fmt.Sprintf("%d. %s (%s)", k+1, items[i], unit(score[i]))
	}
	return strings.Join(out, ", ")
}

// PanelResults are a panel table's results as one viewer may see them
// (panel.Results), with the names of its judges.
type PanelResults struct {
	panel.Results
	// Names are the participants' names by ID.
	Names map[string]string `json:"names"`
}

// Panel returns the results of the panel in channel as v may see them
// now: its rankings, each judge's sentiments round by round, and every
// survey answer (someone else's only to the organiser's viewer). A table
// that is not a panel gives an error of code roundtable.Invalid.
func (t *Tables) Panel(ctx context.Context, channel string, v roundtable.Viewer) (*PanelResults, error) {
	s, err := t.State(ctx, channel, v)
	if err != nil {
		return nil, err
	}
	if !rates(s) {
		return nil, roundtable.Errorf(roundtable.Invalid, "this table judges no items")
	}
	out := &PanelResults{Results: panel.Outcome(s), Names: map[string]string{}}
	for _, p := range s.Participants {
		out.Names[p.ID] = p.Name
	}
	for _, id := range s.Left {
		if _, ok := out.Names[id]; !ok {
			out.Names[id] = id
		}
	}
	return out, nil
}
