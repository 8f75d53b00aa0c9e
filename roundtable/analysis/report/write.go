package report

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Write renders rep into dir: NAME.csv for every artifact, NAME.png and
// NAME.svg for charts, heat maps and graphs, NAME.dot (Graphviz) for graphs, and
// index.md listing what each file shows, headed by intro (the runs and
// instruments behind the numbers). It returns the files written.
func Write(dir string, rep Report, intro string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	var files []string
	var idx strings.Builder
	idx.WriteString("# RoundTable paper: tables and figures\n\n" + intro + "\n\n| file | reproduces | what it shows |\n|---|---|---|\n")
	for _, a := range rep.Artifacts {
		written, note, err := writeArtifact(dir, a)
		files = append(files, written...)
		if err != nil {
			return files, err
		}
		about := a.About
		if note != "" {
			about += " " + note
		}
		links := make([]string, len(written))
		for i, f := range written {
			links[i] = fmt.Sprintf("[%s](%s)", filepath.Base(f), filepath.Base(f))
		}
		fmt.Fprintf(&idx, "| %s | %s | %s |\n", strings.Join(links, " "), a.Title, about)
	}
	idx.WriteString(methodNotes)
	if len(rep.Skipped) > 0 {
		idx.WriteString("\n## Not produced\n\n")
		for _, s := range rep.Skipped {
			fmt.Fprintf(&idx, "- %s\n", s)
		}
	}
	path := filepath.Join(dir, "index.md")
	if err := os.WriteFile(path, []byte(idx.String()), 0o644); err != nil {
		return files, fmt.Errorf("write %s: %w", path, err)
	}
	return append(files, path), nil
}

// writeArtifact writes a's CSV, and its figure unless it has none or
// would be degenerate; note says why a figure was not drawn.
func writeArtifact(dir string, a Artifact) (files []string, note string, err error) {
	base := filepath.Join(dir, a.Name)
	if err := writeCSV(base+".csv", a.CSV); err != nil {
		return nil, "", err
	}
	files = []string{base + ".csv"}
	f, why := figureOf(a)
	if f == nil {
		if why != "" {
			note = "No figure: " + why + "."
		}
		return files, note, removeFigure(base)
	}
	if a.Graph != nil || a.Graphs != nil {
		graphs := []*Graph{a.Graph}
		if a.Graphs != nil {
			graphs = a.Graphs.Graphs
		}
		if err := os.WriteFile(base+".dot", []byte(dot(graphs)), 0o644); err != nil {
			return files, "", fmt.Errorf("write %s.dot: %w", base, err)
		}
		files = append(files, base+".dot")
	}
	saved, err := render(f, base)
	return append(files, saved...), "", err
}

// removeFigure removes base's figure files left by an earlier run, so
// that a figure not drawn now does not stand beside the new CSV.
func removeFigure(base string) error {
	for _, ext := range []string{".png", ".svg", ".dot"} {
		if err := os.Remove(base + ext); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove the stale %s%s: %w", base, ext, err)
		}
	}
	return nil
}

// SaveChart draws c as base.png and base.svg, the figures of every
// report, and returns the files written: none for a chart without a
// series of two points.
func SaveChart(c *Chart, base string) ([]string, error) {
	f, _ := chartFigure(c)
	if f == nil {
		return nil, removeFigure(base)
	}
	return render(f, base)
}

func writeCSV(path string, rows [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	w := csv.NewWriter(f)
	if err := w.WriteAll(rows); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// methodNotes say how the numbers are made where the paper leaves room.
const methodNotes = `
## How the numbers are made

- Performance per round is that of the decision in force after the round
  (exchange: U_r/U_max; recommendation: the absolute error of the rating, a
  round with nothing decided counting as "always 4"). A table that ended
  early keeps its decision for the rounds it did not play.
- Early stopping is scored on held-out tables by k-fold cross-validation;
  the folds are a seeded permutation of the tables in ID order cut into k
  near-equal parts. Validation checkpoint: the training tables' mean best
  round (the earliest of equals), rounded half up. Information difference:
  the training tables' mean information difference at their best round;
  a test table stops in the first round below it. Dialogue act: OLS of the
  centred round performance on one-hot act pairs (an act in round r-1 by i,
  an act in round r by someone else; Start before round 1; each pair
  counted as the transition graph counts it), then every
  setting of p-value threshold {0.05, 0.1, 0.2, None}, top_da 1..10,
  count_per_round 1..3 and score 1..top_da is tried on the training tables;
  the best is kept only if it beats running to the end. Ensemble (the
  paper's Table 11 names it without defining it): a held-out table stops in
  the first round by which three of the five signal methods (first
  agreement, consecutive agreements, validation checkpoint, information
  difference, dialogue act) have stopped it.
- Effective ratio: the share of held-out tables where the method's signal
  fired (the others run to the end).
`

// dot is the graphs in Graphviz's language, one digraph each.
func dot(gs []*Graph) string {
	var b strings.Builder
	for _, g := range gs {
		fmt.Fprintf(&b, "digraph transitions {\n  label=%q;\n", g.Title)
		for _, n := range g.Nodes {
			fmt.Fprintf(&b, "  %q;\n", n)
		}
		for _, e := range g.Edges {
			fmt.Fprintf(&b, "  %q -> %q [label=\"%.2f\"];\n", e.From, e.To, e.P)
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// unsafeName is a run of characters a file name should not hold.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// FileName keeps s (a table ID, a condition, an item) usable as part of a
// file name: each run of characters other than ASCII letters, digits, '-'
// and '_' becomes one '_'.
func FileName(s string) string { return unsafeName.ReplaceAllString(s, "_") }
