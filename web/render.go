package web

import (
	"bytes"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/sealedhq/sealed/rules/secret"
	"golang.org/x/mod/sumdb/tlog"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// renderer is echo's Renderer over the embedded html/template pages: each
// page is templates/NAME.html, which defines "title" and "content", joined
// with templates/layout.html. html/template escapes every value for its
// context (HTML text, attribute, URL); no player text is ever passed as
// template.HTML.
type renderer struct {
	pages map[string]*template.Template
	// frame is the layout's text around the commitment page, which is
	// written without executing its template (pageWriter).
	frame *pageFrame
}

// funcs are the template helpers; all return plain strings, escaped by
// html/template where they are used.
var funcs = template.FuncMap{
	"short": func(s string) string {
		if len(s) > 12 {
			return s[:12] + "…"
		}
		return s
	},
	"when": func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format("2006-01-02 15:04:05 MST")
	},
	"hashHex": func(h tlog.Hash) string { return hex.EncodeToString(h[:]) },
	"hashB64": func(h tlog.Hash) string { return base64.StdEncoding.EncodeToString(h[:]) },
	"add":     func(a, b int) int { return a + b },
	"literal": literal,
	// literalParts and marked split text so hidden characters show as
	// visible marks (hidden.go); hiddenNotes names them.
	"literalParts": literalParts,
	"marked":       markHidden,
	"hiddenNotes":  func(s string) []string { return hiddenNotes(s, false) },
	// plainRule words a rule citation as players do; reading names a
	// reading (its Code is "" for none): see rules/secret.
	"plainRule": secret.PlainRule,
	"reading": func(code string) secret.ReadingInfo {
		r, _ := secret.ReadingOf(code)
		return r
	},
}

// literal renders revealed bytes for display: the text itself when it is
// valid UTF-8, else a Go-quoted string (so every byte is visible). The
// result is still escaped by html/template.
func literal(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return fmt.Sprintf("%q (not valid UTF-8)", b)
}

func newRenderer() (*renderer, error) {
	layout, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html")
	if err != nil {
		return nil, fmt.Errorf("web: layout template: %w", err)
	}
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	r := &renderer{pages: map[string]*template.Template{}}
	for _, n := range names {
		name := strings.TrimSuffix(path.Base(n), ".html")
		if name == "layout" {
			continue
		}
		t, err := template.Must(layout.Clone()).ParseFS(templateFS, n)
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", n, err)
		}
		r.pages[name] = t
	}
	if r.frame, err = newPageFrame(r.pages["commitment"]); err != nil {
		return nil, fmt.Errorf("web: commitment page layout: %w", err)
	}
	return r, nil
}

// Render implements echo.Renderer (echo v4 signature): it executes page
// name into a buffer first, so a template error never sends half a page.
func (r *renderer) Render(w io.Writer, name string, data interface{}, _ echo.Context) error {
	t, ok := r.pages[name]
	if !ok {
		return fmt.Errorf("web: no page template %q", name)
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", data); err != nil {
		return fmt.Errorf("web: rendering %s: %w", name, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// static serves the embedded files under /static/: no directory listings,
// a content type by extension, and a short cache lifetime.
func (s *Server) static(c echo.Context) error {
	name := c.Param("*")
	if name == "" || strings.Contains(name, "..") || strings.HasSuffix(name, "/") {
		return notFound("no such file: /static/%s", name)
	}
	b, err := fs.ReadFile(staticFS, "static/"+name)
	if err != nil {
		return notFound("no such file: /static/%s", name)
	}
	ct := mime.TypeByExtension(path.Ext(name))
	if ct == "" {
		ct = "application/octet-stream"
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
	return c.Blob(http.StatusOK, ct, b)
}
