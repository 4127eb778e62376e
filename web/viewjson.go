package web

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/sealedhq/sealed/rules/secret"
)

// viewJSON appends the JSON of commitment views without reflection: the
// same bytes json.Marshal gives (field order, omitempty and omitzero,
// string escaping, RFC 3339 times), which TestViewJSONMatchesMarshal
// checks over the test ledgers. A time json.Marshal would refuse (a year
// outside 0-9999) makes ok false, and the caller falls back to
// json.Marshal for its error.
type viewJSON struct {
	b  []byte
	ok bool
	// last is the last time written, at b[lastAt:lastAt+lastN] (quoted):
	// a view repeats its times (a post's time is also its failure's and
	// its explanations'), which are then copied, not formatted again.
	last          time.Time
	lastAt, lastN int
}

// marshalView is json.Marshal(v), faster.
func marshalView(v *commitmentView) ([]byte, error) { return appendView(nil, v) }

// appendView appends json.Marshal(v)'s bytes to dst, written by viewJSON,
// or by json.Marshal when viewJSON cannot (ok false).
func appendView(dst []byte, v *commitmentView) ([]byte, error) {
	w := viewJSON{b: dst, ok: true}
	w.view(v)
	if !w.ok {
		b, err := json.Marshal(v)
		return append(w.b[:len(dst)], b...), err
	}
	return w.b, nil
}

// jsonPlain marks the bytes encoding/json writes as they are: printable
// ASCII but for the quote, the backslash, <, > and &.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

func (w *viewJSON) raw(s string) { w.b = append(w.b, s...) }

// str appends s as a JSON string, escaped as encoding/json does: quote,
// backslash and control characters, <, > and & as \u escapes, U+2028 and
// U+2029 escaped, invalid UTF-8 as U+FFFD.
func (w *viewJSON) str(s string) {
	const hex = "0123456789abcdef"
	b := append(w.b, '"')
	start := 0
	slow := 0 // bytes from here on have not been found in a plain word
	for i := 0; i < len(s); {
		if i >= slow {
			// Plain words are skipped; the next eight bytes, which hold a
			// byte to escape or end s, are looked at one by one.
			if i = jsonPlainPrefix(s, i); i == len(s) {
				break
			}
			slow = i + 8
		}
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	w.b = append(b, '"')
}

// strs appends a []string (null when nil).
func (w *viewJSON) strs(ss []string) {
	if ss == nil {
		w.raw("null")
		return
	}
	w.b = append(w.b, '[')
	for i, s := range ss {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.str(s)
	}
	w.b = append(w.b, ']')
}

// time appends t as time.Time.MarshalJSON does (RFC 3339 with nanoseconds).
func (w *viewJSON) time(t time.Time) {
	if w.lastN > 0 && t == w.last { // the same instant, location and representation: the same text
		w.b = append(w.b, w.b[w.lastAt:w.lastAt+w.lastN]...)
		return
	}
	if y := t.Year(); y < 0 || y > 9999 {
		w.ok = false
		return
	}
	at := len(w.b)
	w.b = append(w.b, '"')
	w.b = appendRFC3339Nano(w.b, t)
	w.b = append(w.b, '"')
	w.last, w.lastAt, w.lastN = t, at, len(w.b)-at
}

func (w *viewJSON) int(n int64) { w.b = strconv.AppendInt(w.b, n, 10) }

func (w *viewJSON) bool(v bool) { w.b = strconv.AppendBool(w.b, v) }

func (w *viewJSON) view(v *commitmentView) {
	w.raw(`{"commitment":`)
	w.str(v.Commitment)
	w.raw(`,"judged_at":`)
	w.time(v.JudgedAt)
	w.raw(`,"actions":`)
	if v.Actions == nil {
		w.raw("null")
	} else {
		w.b = append(w.b, '[')
		for i := range v.Actions {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.action(&v.Actions[i])
		}
		w.b = append(w.b, ']')
	}
	w.b = append(w.b, '}')
}

func (w *viewJSON) action(a *actionView) {
	w.raw(`{"index":`)
	w.int(a.Index)
	w.raw(`,"player":`)
	w.str(a.Player)
	if len(a.PlayerNotes) > 0 {
		w.raw(`,"player_notes":`)
		w.strs(a.PlayerNotes)
	}
	w.raw(`,"action_type":`)
	w.str(a.ActionType)
	w.raw(`,"channel":`)
	w.str(a.Channel)
	w.raw(`,"integrated_at":`)
	w.time(a.IntegratedAt)
	if !a.PostedAt.IsZero() {
		w.raw(`,"posted_at":`)
		w.time(a.PostedAt)
	}
	w.raw(`,"state":`)
	w.str(string(a.State))
	if !a.Maturation.IsZero() { // never taken: no dates
		w.raw(`,"maturation":`)
		w.time(a.Maturation)
	}
	if !a.Revelation.IsZero() {
		w.raw(`,"revelation":`)
		w.time(a.Revelation)
	}
	if f := a.Failure; f != nil {
		w.raw(`,"failure":{"reason":`)
		w.str(string(f.Reason))
		w.raw(`,"at":`)
		w.time(f.At)
		w.raw(`,"why":`)
		w.explanation(&f.Why)
		w.b = append(w.b, '}')
	}
	if a.PhaseHelp != "" {
		w.raw(`,"phase_help":`)
		w.str(a.PhaseHelp)
	}
	if d := a.Declaration; d != nil {
		w.raw(`,"declaration":`)
		w.declaration(d)
	}
	w.raw(`,"decisions":`)
	if a.Decisions == nil {
		w.raw("null")
	} else {
		w.b = append(w.b, '[')
		for i := range a.Decisions {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.explanation(&a.Decisions[i])
		}
		w.b = append(w.b, ']')
	}
	if len(a.Flags) > 0 {
		w.raw(`,"flags":[`)
		for i, f := range a.Flags {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.raw(`{"kind":`)
			w.str(string(f.Kind))
			w.raw(`,"earlier":`)
			w.int(f.Earlier)
			w.raw(`,"earlier_player":`)
			w.str(f.EarlierPlayer)
			w.raw(`,"text":`)
			w.str(f.Text)
			w.b = append(w.b, '}')
		}
		w.b = append(w.b, ']')
	}
	w.raw(`,"reveals":`)
	if a.Reveals == nil {
		w.raw("null")
	} else {
		w.b = append(w.b, '[')
		for i := range a.Reveals {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.reveal(&a.Reveals[i])
		}
		w.b = append(w.b, ']')
	}
	w.raw(`,"edits":`)
	if a.Edits == nil {
		w.raw("null")
	} else {
		w.b = append(w.b, '[')
		for i, e := range a.Edits {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.raw(`{"index":`)
			w.int(e.Index)
			w.raw(`,"player":`)
			w.str(e.Player)
			w.raw(`,"integrated_at":`)
			w.time(e.IntegratedAt)
			if !e.PostedAt.IsZero() {
				w.raw(`,"posted_at":`)
				w.time(e.PostedAt)
			}
			w.b = append(w.b, '}')
		}
		w.b = append(w.b, ']')
	}
	w.b = append(w.b, '}')
}

func (w *viewJSON) explanation(e *secret.Explanation) {
	w.raw(`{"rule":`)
	w.str(e.Rule)
	if e.Reading != "" {
		w.raw(`,"reading":`)
		w.str(e.Reading)
	}
	w.raw(`,"text":`)
	w.str(e.Text)
	if len(e.Times) > 0 {
		w.raw(`,"times":[`)
		for i, t := range e.Times {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.raw(`{"what":`)
			w.str(t.What)
			w.raw(`,"index":`)
			w.int(t.Index)
			w.raw(`,"at":`)
			w.time(t.At)
			if t.Source != "" {
				w.raw(`,"source":`)
				w.str(string(t.Source))
			}
			if t.Gap != 0 {
				w.raw(`,"gap":`)
				w.int(int64(t.Gap))
			}
			w.b = append(w.b, '}')
		}
		w.b = append(w.b, ']')
	}
	w.b = append(w.b, '}')
}

func (w *viewJSON) declaration(d *secret.Declaration) {
	w.b = append(w.b, '{')
	sep := ""
	if len(d.Bids) > 0 {
		w.raw(`"bids":[`)
		for i, b := range d.Bids {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.raw(`{"amount":`)
			w.str(b.Amount)
			w.raw(`,"lot":`)
			w.str(b.Lot)
			w.raw(`,"line":`)
			w.int(int64(b.Line))
			w.b = append(w.b, '}')
		}
		w.b = append(w.b, ']')
		sep = ","
	}
	if len(d.Hand) > 0 {
		w.raw(sep + `"hand":[`)
		for i, c := range d.Hand {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.str(c.String())
		}
		w.b = append(w.b, ']')
	}
	w.b = append(w.b, '}')
}

func (w *viewJSON) reveal(r *revealView) {
	w.raw(`{"index":`)
	w.int(r.Index)
	w.raw(`,"player":`)
	w.str(r.Player)
	if len(r.PlayerNotes) > 0 {
		w.raw(`,"player_notes":`)
		w.strs(r.PlayerNotes)
	}
	w.raw(`,"integrated_at":`)
	w.time(r.IntegratedAt)
	if !r.PostedAt.IsZero() {
		w.raw(`,"posted_at":`)
		w.time(r.PostedAt)
	}
	if r.Text != nil {
		w.raw(`,"text":`)
		w.str(*r.Text)
	}
	if r.TextBase64 != "" {
		w.raw(`,"text_base64":`)
		w.str(r.TextBase64)
	}
	w.raw(`,"bytes":`)
	w.int(int64(r.Bytes))
	w.raw(`,"match":`)
	w.bool(r.Match)
	w.raw(`,"hints":`)
	w.strs(r.Hints)
	w.raw(`,"counted":`)
	w.bool(r.Counted)
	if len(r.Notes) > 0 {
		w.raw(`,"notes":`)
		w.strs(r.Notes)
	}
	w.b = append(w.b, '}')
}
