package protocol

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// ReadDocs reads the items' source documents from dir into s.Docs: one
// text file per item (NAME.txt or NAME.md). Without s.Items the files name
// the items, in name order; with them every item needs a file. Errors
// name the setting item_dir.
func ReadDocs(s Settings, dir string) (Settings, error) {
	files, err := os.ReadDir(dir)
	if err != nil {
		return s, fmt.Errorf("%s: %v", s.Field("item_dir"), err)
	}
	docs := map[string]string{}
	var names []string
	for _, fi := range files {
		ext := filepath.Ext(fi.Name())
		if fi.IsDir() || (ext != ".txt" && ext != ".md") {
			continue
		}
		path := filepath.Join(dir, fi.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			return s, fmt.Errorf("%s: %v", s.Field("item_dir"), err)
		}
		if err := roundtable.CheckText(string(b)); err != nil {
			return s, fmt.Errorf("%s: %s: %s", s.Field("item_dir"), path, roundtable.ErrorMessage(err))
		}
		name := strings.TrimSuffix(fi.Name(), ext)
		docs[name] = string(b)
		names = append(names, name)
	}
	if len(s.Items) == 0 {
		if len(names) == 0 {
			return s, fmt.Errorf("%s: %s holds no .txt or .md file", s.Field("item_dir"), dir)
		}
		s.Items = names
	}
	for _, it := range s.Items {
		if _, ok := docs[it]; !ok {
			return s, fmt.Errorf("%s: item %q has no document (%s.txt or %s.md in %s)", s.Field("item_dir"), it, it, it, dir)
		}
	}
	s.Docs = docs
	return s, nil
}
