package docs

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDocsLinks checks every relative link of the pages (the file exists;
// an anchor into a page exists there) and every anchor of docs/protocol.md
// that a Go file cites; no Go file cites a specification the repository
// does not hold.
func TestDocsLinks(t *testing.T) {
	root := repoRoot(t)
	anchors := map[string]map[string]bool{} // page -> its anchors
	read := func(page string) []byte {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
		if err != nil {
			t.Fatalf("read %s: %v", page, err)
		}
		return b
	}
	anchorsOf := func(page string) map[string]bool {
		if anchors[page] == nil {
			anchors[page] = Anchors(read(page))
		}
		return anchors[page]
	}
	for _, page := range pages(t, root) {
		for _, link := range Links(read(page)) {
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(link, "#")
			target := page
			if file != "" {
				target = path.Clean(path.Join(path.Dir(page), file))
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
					t.Errorf("%s: link %q: %s does not exist", page, link, target)
					continue
				}
			}
			if anchor != "" && strings.HasSuffix(target, ".md") && !anchorsOf(target)[anchor] {
				t.Errorf("%s: link %q: %s has no anchor %q", page, link, target, anchor)
			}
		}
	}
	protocol := anchorsOf("docs/protocol.md")
	for _, c := range citations(t, root) {
		if !protocol[c.anchor] {
			t.Errorf("%s cites docs/protocol.md#%s, which has no such anchor", c.where, c.anchor)
		}
	}
}

type citation struct{ where, anchor string }

// missingSpec is the specification the code was first written against,
// which the repository does not hold (spelled in two parts so that this
// file does not cite it).
const missingSpec = "PROTOCOL" + ".md"

var citeRE = regexp.MustCompile(`docs/protocol\.md#([A-Za-z0-9_-]+)`)

// citations are the docs/protocol.md anchors the Go files cite.
func citations(t *testing.T, root string) []citation {
	t.Helper()
	var out []citation
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, missingSpec) {
				t.Errorf("%s:%d cites %s, which is not in the repository: cite a section of docs/protocol.md", rel, i+1, missingSpec)
			}
			for _, m := range citeRE.FindAllStringSubmatch(line, -1) {
				out = append(out, citation{where: rel + ":" + strconv.Itoa(i+1), anchor: m[1]})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
