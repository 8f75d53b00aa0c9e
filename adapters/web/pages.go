package web

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
)

//go:embed templates/*.html
var templateFS embed.FS

// parseTemplates parses the embedded pages; they are part of the binary,
// so a parse error is a bug the package's tests catch.
func parseTemplates() *template.Template {
	return template.Must(template.New("").ParseFS(templateFS, "templates/*.html"))
}

// render writes a page. It renders into a buffer first, so a template
// error becomes a clean 500 rather than half a page.
func (p *Platform) render(w http.ResponseWriter, code int, name string, data any) {
	var buf bytes.Buffer
	if err := p.pages.ExecuteTemplate(&buf, name, data); err != nil {
		p.log.Error("render page", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_, _ = buf.WriteTo(w) // the client went away: nothing to do
}

// messagePage is a page that says one thing.
type messagePage struct {
	Title, Text string
}

func (p *Platform) renderMessage(w http.ResponseWriter, code int, title, text string) {
	p.render(w, code, "message", messagePage{Title: title, Text: text})
}
