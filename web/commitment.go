package web

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/rules/secret"
)

// commitmentView is a commitment as the ledger and the secret-action judge
// see it: every commit entry carrying it (more than one is a copied
// commitment), each with its state. It is the /c/{hash} page's data and the
// JSON of GET /api/v1/commitments/{hash}.
type commitmentView struct {
	Commitment string       `json:"commitment"`
	JudgedAt   time.Time    `json:"judged_at"` // the instant the states are for
	Actions    []actionView `json:"actions"`
}

// actionView is one commit entry with the judge's verdict (secret.Action)
// and the reveals and edits that name it.
type actionView struct {
	Index  int64  `json:"index"` // ledger index of the commit entry
	Player string `json:"player"`
	// PlayerNotes name the hidden characters of Player (hiddenNotes).
	PlayerNotes  []string        `json:"player_notes,omitempty"`
	ActionType   string          `json:"action_type"`
	Channel      string          `json:"channel"`
	IntegratedAt time.Time       `json:"integrated_at"`
	PostedAt     time.Time       `json:"posted_at,omitzero"`
	State        secret.State    `json:"state"`
	Maturation   time.Time       `json:"maturation,omitzero"` // zero (left out) for an action never taken
	Revelation   time.Time       `json:"revelation,omitzero"`
	Failure      *secret.Failure `json:"failure,omitempty"`
	// PhaseHelp, for a failure outside the action's phase
	// (secret.WrongPhase), names the phase the action type needs and when
	// it next starts as of judged_at (wrongPhaseHelp).
	PhaseHelp   string               `json:"phase_help,omitempty"`
	Declaration *secret.Declaration  `json:"declaration,omitempty"`
	Decisions   []secret.Explanation `json:"decisions"`
	Flags       []secret.Flag        `json:"flags,omitempty"`
	Reveals     []revealView         `json:"reveals"`
	Edits       []editView           `json:"edits"`
}

// revealView is one reveal entry: the exact bytes, whether they hash to the
// commitment (commit.Verify) with near-miss hints, and whether it is the
// reveal that counted.
type revealView struct {
	Index        int64     `json:"index"`
	Player       string    `json:"player"`
	PlayerNotes  []string  `json:"player_notes,omitempty"` // hidden characters of Player
	IntegratedAt time.Time `json:"integrated_at"`
	PostedAt     time.Time `json:"posted_at,omitzero"`
	Text         *string   `json:"text,omitempty"`        // when valid UTF-8
	TextBase64   string    `json:"text_base64,omitempty"` // otherwise
	Bytes        int       `json:"bytes"`
	Match        bool      `json:"match"`
	Hints        []string  `json:"hints"`
	Counted      bool      `json:"counted"`
	// Notes name bytes a reader cannot see in the literal display: a
	// trailing line break, carriage returns, outer spaces, a BOM, and
	// each format or control character ("it contains U+202E RIGHT-TO-LEFT
	// OVERRIDE at byte 23"; the page shows those as marks, hidden.go).
	Notes []string `json:"notes,omitempty"`
	raw   []byte
}

// invisibles names the bytes of t that a literal display hides.
func invisibles(t []byte) []string {
	var n []string
	s := string(t)
	if strings.HasPrefix(s, "\uFEFF") {
		n = append(n, "it starts with a UTF-8 byte order mark (EF BB BF)")
	}
	switch {
	case strings.HasSuffix(s, "\r\n"):
		n = append(n, "it ends with a line break (CR LF)")
	case strings.HasSuffix(s, "\n"):
		n = append(n, "it ends with a line break (LF)")
	}
	if c := strings.Count(s, "\r"); c > 0 {
		n = append(n, fmt.Sprintf("it holds %d carriage return (CR) %s", c, plural(c, "byte", "bytes")))
	}
	trimmed := strings.TrimRight(s, "\r\n")
	if strings.TrimLeft(s, " \t") != s || strings.TrimRight(trimmed, " \t") != trimmed {
		n = append(n, "it starts or ends with spaces or tabs")
	}
	for _, h := range hiddenNotes(s, true) {
		n = append(n, "it "+h)
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Raw is the revealed bytes, for the template's literal display.
func (r revealView) Raw() []byte { return r.raw }

// editView is one edit entry.
type editView struct {
	Index        int64     `json:"index"`
	Player       string    `json:"player"`
	IntegratedAt time.Time `json:"integrated_at"`
	PostedAt     time.Time `json:"posted_at,omitzero"`
}

// parseHash reads a posted hash (commit.ParseCommitment: any case, an
// optional sha256: prefix); a malformed one is a 400 saying what was
// expected.
func parseHash(s string) (commit.Commitment, error) {
	if c, ok := parseHex64(s); ok {
		return c, nil
	}
	c, err := commit.ParseCommitment(s)
	if err != nil {
		return c, badRequest("malformed hash: %v", err)
	}
	return c, nil
}

// parseHex64 decodes s when it is exactly 64 hex digits (either case),
// which commit.ParseCommitment reads the same way, without its other
// checks.
func parseHex64(s string) (c commit.Commitment, ok bool) {
	c, ok, _ = decodeHex64(s)
	return c, ok
}

// decodeHex64 is parseHex64, and reports too whether s is all lowercase
// (c.String() is then s).
func decodeHex64(s string) (c commit.Commitment, ok, lower bool) {
	if len(s) != 2*len(c) {
		return c, false, false
	}
	var seen byte
	for i := range c {
		hi, lo := hexDigit[s[2*i]], hexDigit[s[2*i+1]]
		seen |= hi | lo
		c[i] = hi<<4 | lo&0xf
	}
	return c, seen&hexBad == 0, seen&hexUpper == 0
}

// hexDigit maps a byte to its value as a hex digit, with hexUpper set for
// A-F and hexBad for a byte that is not a hex digit.
var hexDigit = func() (t [256]byte) {
	for i := range t {
		t[i] = hexBad
	}
	for i := range 10 {
		t['0'+i] = byte(i)
	}
	for i := range 6 {
		t['a'+i] = byte(10 + i)
		t['A'+i] = byte(10+i) | hexUpper
	}
	return t
}()

const (
	hexUpper = 0x20
	hexBad   = 0x80
)

// hexName is c.String() when s, the hash as asked for, already spells it
// (64 lowercase hex digits), else c.String().
func hexName(c commit.Commitment, s string) string {
	if d, ok, lower := decodeHex64(s); ok && lower && d == c {
		return s
	}
	return c.String()
}

// views holds commitment views for reuse: a view is built for one answer
// (lookupCommitment), encoded into a scratch buffer and put back
// (release), so an answer allocates next to nothing whichever commitment
// it is for, and nothing of it outlives the answer.
var views = sync.Pool{New: func() any { return new(commitmentView) }}

// lookupCommitment builds the view of c from the current judgement, in a
// view from the pool (release gives it back); 404 when no commit entry
// has c.
func (s *Server) lookupCommitment(c commit.Commitment) (*commitmentView, error) {
	return s.lookupAsked(c, "")
}

// lookupAsked is lookupCommitment of c asked for as asked (the hash in
// the path, which names c in the view when it spells it as c.String()
// does).
func (s *Server) lookupAsked(c commit.Commitment, asked string) (*commitmentView, error) {
	jd, idx, err := s.judge.lookup(c)
	if err != nil {
		return nil, err
	}
	if len(idx) == 0 {
		return nil, notFound("no commit entry in the ledger has the commitment %s", c)
	}
	v := views.Get().(*commitmentView)
	s.fillView(v, jd, idx, c, asked)
	return v, nil
}

// release puts v back in the pool; v must not be used after.
func (v *commitmentView) release() { views.Put(v) }

// viewOf builds the view of commitment c from the judgement, judged under g.
func viewOf(jd *judgement, idx []int, c commit.Commitment, g secret.Game) *commitmentView {
	v := new(commitmentView)
	fillView(v, jd, idx, c, c.String(), func(a *secret.Action) string { return wrongPhaseHelp(g, a, jd.at) })
	return v
}

// fillView is viewOf into v, reusing the room v's slices have, with the
// phase help of the server's memo (phaseHelp); asked is the hash as asked
// for (hexName).
func (s *Server) fillView(v *commitmentView, jd *judgement, idx []int, c commit.Commitment, asked string) {
	fillView(v, jd, idx, c, hexName(c, asked), func(a *secret.Action) string { return s.phaseHelp(jd, a) })
}

// fillView makes v the view of commitment c, named name (c.String()),
// from the judgement (the actions at idx), with help giving an action's
// PhaseHelp. v's Actions and their Reveals and Edits keep their capacity.
func fillView(v *commitmentView, jd *judgement, idx []int, c commit.Commitment, name string, help func(*secret.Action) string) {
	v.Commitment, v.JudgedAt = name, jd.at
	acts := v.Actions[:0]
	for _, i := range idx {
		a := jd.j.Action(i)
		var reveals []revealView
		var edits []editView
		if len(acts) < cap(acts) {
			old := &acts[:len(acts)+1][len(acts)]
			reveals, edits = old.Reveals[:0], old.Edits[:0]
		}
		if reveals == nil {
			reveals = []revealView{}
		}
		if edits == nil {
			edits = []editView{}
		}
		av := actionView{Index: a.Post.Index, Player: a.Post.Player, PlayerNotes: hiddenNotes(a.Post.Player, false), ActionType: a.Post.ActionType, Channel: a.Post.Channel,
			IntegratedAt: a.Post.IntegratedAt, PostedAt: a.Post.PostedAt, State: a.State, Maturation: a.Maturation,
			Revelation: a.Revelation, Failure: a.Failure, PhaseHelp: help(a), Declaration: a.Declaration, Decisions: a.Decisions, Flags: a.Flags,
			Reveals: reveals, Edits: edits}
		for _, r := range jd.reveals[a.Post.Index] {
			res := commit.Verify(c, r.Text)
			rv := revealView{Index: r.Index, Player: r.Player, PlayerNotes: hiddenNotes(r.Player, false), IntegratedAt: r.IntegratedAt, PostedAt: r.PostedAt,
				Bytes: len(r.Text), Match: res.Match, Hints: []string{}, raw: r.Text, Notes: invisibles(r.Text),
				Counted: a.Reveal != nil && a.Reveal.Index == r.Index}
			if utf8.Valid(r.Text) {
				t := string(r.Text)
				rv.Text = &t
			} else {
				rv.TextBase64 = base64.StdEncoding.EncodeToString(r.Text)
			}
			for _, h := range res.Hints {
				rv.Hints = append(rv.Hints, h.Name)
			}
			av.Reveals = append(av.Reveals, rv)
		}
		for _, e := range jd.edits[a.Post.Index] {
			av.Edits = append(av.Edits, editView{Index: e.Index, Player: e.Player, IntegratedAt: e.IntegratedAt, PostedAt: e.PostedAt})
		}
		acts = append(acts, av)
	}
	v.Actions = acts
}

// commitmentPage is GET /c/{hash}.
func (s *Server) commitmentPage(c echo.Context) error { return s.answerCommitment(c, true) }

// appendPage appends the HTML page of v to dst: written by pageWriter
// (the template's bytes, faster), or by the template when pageWriter
// declines.
func (r *renderer) appendPage(dst []byte, v *commitmentView) ([]byte, error) {
	if b, ok := r.frame.appendPage(dst, v); ok {
		return b, nil
	}
	buf := bytes.NewBuffer(dst)
	err := r.Render(buf, "commitment", v, nil)
	return buf.Bytes(), err
}

// apiCommitment is GET /api/v1/commitments/{hash}.
func (s *Server) apiCommitment(c echo.Context) error { return s.answerCommitment(c, false) }

// answerCommitment answers a commitment's JSON (or, when page, its HTML
// page): the view is filled in one taken from a pool, written into a
// pooled buffer, and sent with shared header values (Content-Type as
// echo's JSONBlob and HTMLBlob set it, Content-Length of the bytes), so
// an answer allocates nothing of its own. A malformed hash is 400, a
// commitment no commit entry has 404 (parseHash, lookupAsked).
func (s *Server) answerCommitment(c echo.Context, page bool) error {
	asked := c.Param("hash")
	h, err := parseHash(asked)
	if err != nil {
		return err
	}
	v, err := s.lookupAsked(h, asked)
	if err != nil {
		return err
	}
	defer v.release()
	buf := getScratch()
	defer putScratch(buf)
	ct := jsonType
	if page {
		ct = htmlType
		*buf, err = s.pages.appendPage(*buf, v)
	} else {
		*buf, err = appendView(*buf, v)
	}
	if err != nil {
		return err
	}
	hd := c.Response().Header()
	hd[echo.HeaderContentType] = ct
	hd[echo.HeaderContentLength] = contentLength(len(*buf))
	c.Response().WriteHeader(http.StatusOK)
	_, err = c.Response().Write(*buf)
	return err
}

// contentLengths holds the Content-Length values of answers shorter
// than 16 KiB, each made on first use and then shared (never written to).
var contentLengths [16 << 10]atomic.Pointer[[]string]

// contentLength is the Content-Length header value of an answer of n
// bytes, as a header map holds it.
func contentLength(n int) []string {
	if n < 0 || n >= len(contentLengths) {
		return []string{strconv.Itoa(n)}
	}
	if p := contentLengths[n].Load(); p != nil {
		return *p
	}
	v := []string{strconv.Itoa(n)}[:1:1]
	contentLengths[n].Store(&v)
	return v
}

// Content types of the commitment answers, as echo's JSONBlob and
// HTMLBlob set them (shared slices, never written to).
var (
	jsonType = []string{echo.MIMEApplicationJSON}[:1:1]
	htmlType = []string{echo.MIMETextHTMLCharsetUTF8}[:1:1]
)
