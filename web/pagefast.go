package web

import (
	"bytes"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"time"

	"github.com/sealedhq/sealed/rules/secret"
)

// pageWriter writes the commitment page (templates/commitment.html in
// templates/layout.html) without executing the template: the same bytes
// html/template gives, which TestCommitmentPageMatchesTemplate checks over
// the test ledgers and over views full of markup, quotes, hidden and
// invalid characters. Every value is escaped as html/template escapes it
// in that place (escapeHTML: text, quoted attributes and the title);
// values put in URLs are ledger indexes, the commitment's lowercase hex
// and reading codes, and a reading code that is not plain letters and
// digits makes ok false, so the caller executes the template instead.
// The layout's own text around the title and the content is taken from
// the layout template itself (newPageFrame), so it cannot drift from it.
type pageWriter struct {
	b  []byte
	ok bool
	// last is the last time written by when, at b[lastAt:lastAt+lastN]:
	// repeated times are copied, not formatted again.
	last          time.Time
	lastAt, lastN int
}

// pageFrame is the layout's output around the commitment page's title and
// content.
type pageFrame struct {
	beforeTitle, beforeContent, after string
}

// Sentinels stand for the title and the content when the layout is
// executed once to find its text.
const (
	titleSentinel   = "\x01sealed-title\x01"
	contentSentinel = "\x01sealed-content\x01"
)

// newPageFrame executes the commitment page's layout with the title and
// the content replaced by sentinels, and splits its output around them.
func newPageFrame(page *template.Template) (*pageFrame, error) {
	t, err := page.Clone()
	if err != nil {
		return nil, err
	}
	if _, err := t.New("title").Parse(titleSentinel); err != nil {
		return nil, err
	}
	if _, err := t.New("content").Parse(contentSentinel); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", &commitmentView{}); err != nil {
		return nil, err
	}
	pre, rest, ok1 := strings.Cut(buf.String(), titleSentinel)
	mid, post, ok2 := strings.Cut(rest, contentSentinel)
	if !ok1 || !ok2 || strings.Contains(post, titleSentinel) || strings.Contains(post, contentSentinel) {
		return nil, fmt.Errorf("web: the layout does not hold the page title and content once each")
	}
	return &pageFrame{beforeTitle: pre, beforeContent: mid, after: post}, nil
}

// commitmentPage renders the page of v, or reports false when it must be
// left to the template.
func (f *pageFrame) commitmentPage(v *commitmentView) ([]byte, bool) { return f.appendPage(nil, v) }

// appendPage appends the page of v to dst, or reports false (and returns
// dst) when it must be left to the template.
func (f *pageFrame) appendPage(dst []byte, v *commitmentView) ([]byte, bool) {
	w := pageWriter{b: dst, ok: true}
	w.raw(f.beforeTitle)
	w.raw("Commitment ")
	w.esc(shortText(v.Commitment))
	w.raw(f.beforeContent)
	w.content(v)
	w.raw(f.after)
	if !w.ok {
		return w.b[:len(dst)], false
	}
	return w.b, true
}

// shortText is the template helper "short".
func shortText(s string) string {
	if len(s) > 12 {
		return s[:12] + "…"
	}
	return s
}

func (w *pageWriter) raw(s string) { w.b = append(w.b, s...) }

// esc appends s escaped as html/template escapes text, quoted attribute
// values and RCDATA (its htmlReplacementTable: NUL, quotes, &, +, < and >;
// other bytes, invalid UTF-8 included, are kept).
func (w *pageWriter) esc(s string) {
	start := 0
	slow := 0 // bytes from here on have not been found in a plain word
	for i := 0; i < len(s); i++ {
		if i >= slow {
			// Plain words are skipped; the next eight bytes, which hold a
			// byte to escape or end s, are looked at one by one.
			if i = htmlPlainPrefix(s, i); i == len(s) {
				break
			}
			slow = i + 8
		}
		var r string
		switch s[i] {
		case 0:
			r = "\uFFFD"
		case '"':
			r = "&#34;"
		case '&':
			r = "&amp;"
		case '\'':
			r = "&#39;"
		case '+':
			r = "&#43;"
		case '<':
			r = "&lt;"
		case '>':
			r = "&gt;"
		default:
			continue
		}
		w.b = append(w.b, s[start:i]...)
		w.b = append(w.b, r...)
		start = i + 1
	}
	w.b = append(w.b, s[start:]...)
}

func (w *pageWriter) int(n int64) { w.b = strconv.AppendInt(w.b, n, 10) }

// when is the template helper "when".
func (w *pageWriter) when(t time.Time) {
	if t.IsZero() {
		w.raw("—")
		return
	}
	if w.lastN > 0 && t == w.last { // the same instant, location and representation: the same text
		w.b = append(w.b, w.b[w.lastAt:w.lastAt+w.lastN]...)
		return
	}
	at := len(w.b)
	w.b = appendWhen(w.b, t)
	w.last, w.lastAt, w.lastN = t, at, len(w.b)-at
}

// parts is the layout's "marked" template over parts.
func (w *pageWriter) parts(ps []textPart) {
	for _, p := range ps {
		if p.Mark != "" {
			w.raw(`<span class="hidden-char" title="`)
			w.esc(p.Name)
			w.raw(`">&lt;`)
			w.esc(p.Mark)
			w.raw(`&gt;</span>`)
		} else {
			w.esc(p.Text)
		}
	}
}

// marked is the layout's "marked" template: text with its hidden
// characters shown as marks (markHidden); printable ASCII has none.
func (w *pageWriter) marked(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			w.parts(markHidden(s))
			return
		}
	}
	w.esc(s)
}

// list is {{range $i, $n := .}}{{if $i}}; {{end}}{{$n}}{{end}}.
func (w *pageWriter) list(ss []string) {
	for i, s := range ss {
		if i > 0 {
			w.raw("; ")
		}
		w.esc(s)
	}
}

// cite is the page's "cite" template.
func (w *pageWriter) cite(e *secret.Explanation) {
	w.esc(secret.PlainRule(e.Rule))
	r, _ := secret.ReadingOf(e.Reading)
	if r.Code == "" {
		return
	}
	for _, c := range r.Code {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			w.ok = false
		}
	}
	w.raw(`; reading <a href="/readings#`)
	w.raw(r.Code)
	w.raw(`">`)
	w.esc(r.Name)
	w.raw(`</a>`)
}

// hexOnly reports whether s is lowercase hex digits only (a commitment as
// the view holds it), safe in any URL part as it is.
func hexOnly(s string) bool {
	var seen byte
	for i := 0; i < len(s); i++ {
		seen |= hexDigit[s[i]]
	}
	return seen&(hexBad|hexUpper) == 0
}

// content is templates/commitment.html's "content".
func (w *pageWriter) content(v *commitmentView) {
	if !hexOnly(v.Commitment) {
		w.ok = false
	}
	w.raw("\n<h1>Commitment</h1>\n<p class=\"mono hash\">")
	w.esc(v.Commitment)
	w.raw("</p>\n<p class=\"muted\">States as judged at ")
	w.when(v.JudgedAt)
	w.raw(` under the rule Secret Information (<a href="/readings">how the site reads it</a>). <a href="/verify?hash=`)
	w.raw(v.Commitment)
	w.raw(`">Check a reveal against it</a> · <a href="/api/v1/commitments/`)
	w.raw(v.Commitment)
	w.raw("\">JSON</a></p>\n")
	if len(v.Actions) > 1 {
		w.raw(`<p class="warn">This commitment was posted `)
		w.int(int64(len(v.Actions)))
		w.raw(` times. The same hash from two players is a copied commitment.</p>`)
	}
	w.raw("\n")
	for i := range v.Actions {
		w.action(&v.Actions[i])
	}
	w.raw("\n")
}

func (w *pageWriter) action(a *actionView) {
	w.raw("\n<div class=\"card\">\n<p class=\"verdict state-")
	w.esc(string(a.State))
	w.raw(`">`)
	w.esc(string(a.State))
	if a.Failure != nil {
		w.raw(": ")
		w.esc(string(a.Failure.Reason))
	}
	w.raw("</p>\n<table>\n<tr><th>posted by</th><td>")
	w.marked(a.Player)
	if len(a.PlayerNotes) > 0 {
		w.raw(`<br><span class="warn">The name `)
		w.list(a.PlayerNotes)
		w.raw(`.</span>`)
	}
	w.raw("</td></tr>\n<tr><th>action</th><td>")
	w.marked(a.ActionType)
	w.raw(" in ")
	w.marked(a.Channel)
	w.raw("</td></tr>\n<tr><th>ledger entry</th><td><a href=\"/entry/")
	w.int(a.Index)
	w.raw(`">#`)
	w.int(a.Index)
	w.raw(`</a>, integrated `)
	w.when(a.IntegratedAt)
	if !a.PostedAt.IsZero() {
		w.raw("; posted in the channel ")
		w.when(a.PostedAt)
	}
	w.raw("</td></tr>\n<tr><th>maturation</th><td>")
	w.when(a.Maturation)
	w.raw("</td></tr>\n<tr><th>revelation date</th><td>")
	w.when(a.Revelation)
	w.raw("</td></tr>\n</table>\n")
	if f := a.Failure; f != nil {
		w.raw(`<p class="failure">Failed at `)
		w.when(f.At)
		w.raw(": ")
		w.esc(f.Why.Text)
		w.raw(` <span class="muted">(`)
		w.cite(&f.Why)
		w.raw(`)</span></p>`)
	}
	w.raw("\n")
	if a.PhaseHelp != "" {
		w.raw(`<p class="warn">`)
		w.esc(a.PhaseHelp)
		w.raw(`</p>`)
	}
	w.raw("\n")
	if d := a.Declaration; d != nil {
		w.raw("\n<h3>Declared</h3>\n")
		if len(d.Bids) > 0 {
			w.raw(`<table><tr><th>lot</th><th>bid</th></tr>`)
			for _, b := range d.Bids {
				w.raw(`<tr><td>`)
				w.esc(b.Lot)
				w.raw(`</td><td>`)
				w.esc(b.Amount)
				w.raw(`</td></tr>`)
			}
			w.raw(`</table>`)
		}
		w.raw("\n")
		if len(d.Hand) > 0 {
			w.raw(`<p>Hand: `)
			for _, c := range d.Hand {
				w.raw(`<span class="card-face">`)
				w.esc(c.String())
				w.raw(`</span> `)
			}
			w.raw(`</p>`)
		}
		w.raw("\n")
	}
	w.raw("\n<h3>Reveals</h3>\n")
	if len(a.Reveals) == 0 {
		w.raw("\n<p class=\"muted\">No reveal yet.</p>\n")
	}
	for i := range a.Reveals {
		w.reveal(&a.Reveals[i])
	}
	w.raw("\n")
	if len(a.Edits) > 0 {
		w.raw("\n<h3>Edits of the post</h3>\n<ul>")
		for _, e := range a.Edits {
			w.raw(`<li>Entry <a href="/entry/`)
			w.int(e.Index)
			w.raw(`">#`)
			w.int(e.Index)
			w.raw(`</a> by `)
			w.esc(e.Player)
			w.raw(`, integrated `)
			w.when(e.IntegratedAt)
			w.raw(`</li>`)
		}
		w.raw("</ul>\n")
	}
	w.raw("\n")
	if len(a.Flags) > 0 {
		w.raw("\n<h3>Flags</h3>\n<ul>")
		for _, f := range a.Flags {
			w.raw(`<li class="warn">`)
			w.esc(string(f.Kind))
			w.raw(": ")
			w.esc(f.Text)
			w.raw(`</li>`)
		}
		w.raw("</ul>\n")
	}
	w.raw("\n<details><summary>How the judge decided (")
	w.int(int64(len(a.Decisions)))
	w.raw(" steps)</summary>\n<ol class=\"decisions\">")
	for i := range a.Decisions {
		d := &a.Decisions[i]
		w.raw("<li>")
		w.esc(d.Text)
		w.raw(` <span class="muted">(`)
		w.cite(d)
		w.raw(`)</span>`)
		if len(d.Times) > 0 {
			w.raw(`<br><span class="muted">`)
			for j, t := range d.Times {
				if j > 0 {
					w.raw(" · ")
				}
				w.esc(t.What)
				w.raw(" ")
				w.when(t.At)
			}
			w.raw(`</span>`)
		}
		w.raw(`<br><span class="muted details">details: `)
		w.esc(d.Rule)
		if d.Reading != "" {
			w.raw("; reading ")
			w.esc(d.Reading)
		}
		w.raw(`</span></li>`)
	}
	w.raw("</ol>\n</details>\n</div>\n")
}

func (w *pageWriter) reveal(r *revealView) {
	w.raw("\n<div class=\"reveal\">\n<p>Entry <a href=\"/entry/")
	w.int(r.Index)
	w.raw(`">#`)
	w.int(r.Index)
	w.raw(`</a> by `)
	w.marked(r.Player)
	if len(r.PlayerNotes) > 0 {
		w.raw(` <span class="warn">(the name `)
		w.list(r.PlayerNotes)
		w.raw(`)</span>`)
	}
	w.raw(", integrated ")
	w.when(r.IntegratedAt)
	if !r.PostedAt.IsZero() {
		w.raw("; posted in the channel ")
		w.when(r.PostedAt)
	}
	w.raw(" · ")
	w.int(int64(r.Bytes))
	w.raw(" bytes ·\n")
	if r.Match {
		w.raw(`<span class="ok">matches the commitment</span>`)
	} else {
		w.raw(`<span class="bad">mismatch: does not hash to the commitment</span>`)
	}
	if r.Counted {
		w.raw(` · <span class="ok">this reveal counted</span>`)
	} else if r.Match {
		w.raw(` · <span class="bad">this reveal did not count</span> (how the judge decided says why)`)
	}
	w.raw("</p>\n<pre class=\"literal\">")
	w.parts(literalParts(r.raw))
	w.raw("</pre>\n")
	if len(r.Notes) > 0 {
		w.raw(`<p class="warn">Bytes not visible as such above: `)
		w.list(r.Notes)
		w.raw(`.</p>`)
	}
	w.raw("\n")
	if len(r.Hints) > 0 {
		w.raw(`<p class="warn">Near miss: it would have matched with `)
		for i, h := range r.Hints {
			if i > 0 {
				w.raw("; ")
			}
			w.raw("<strong>")
			w.esc(h)
			w.raw("</strong>")
		}
		w.raw(`. The rule is the exact bytes, so it does not count.</p>`)
	}
	w.raw("\n</div>\n")
}
