package panel

import (
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// task is the panel's brief with the items' source documents, which the
// table's config records (task parameters doc/ITEM) for defensibility.
type task struct {
	roundtable.TextTask
	items []string
	docs  map[string]string
}

// Brief implements roundtable.Task.
func (t task) Brief() string {
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
func (t task) Spec() roundtable.TaskSpec {
	params := map[string]string{}
	for it, doc := range t.docs {
		params[DocParam+it] = doc
	}
	return roundtable.TaskSpec{Kind: t.Kind(), Topic: t.Topic, Params: params}
}
