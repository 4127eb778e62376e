package web

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
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

	key      commit.Commitment
	cache    *viewCache // the cache holding the view, charged for its encodings
	once     sync.Once
	json     []byte
	jsonErr  error
	htmlOnce sync.Once
	html     []byte
	htmlErr  error
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
	Maturation   time.Time       `json:"maturation"`
	Revelation   time.Time       `json:"revelation"`
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
	c, err := commit.ParseCommitment(s)
	if err != nil {
		return c, badRequest("malformed hash: %v", err)
	}
	return c, nil
}

// lookupCommitment builds the view of c; 404 when no commit entry has it.
// The view is built once per judgement and shared (read-only) after.
func (s *Server) lookupCommitment(c commit.Commitment) (*commitmentView, error) {
	jd, idx, err := s.judge.lookup(c)
	if err != nil {
		return nil, err
	}
	if len(idx) == 0 {
		return nil, notFound("no commit entry in the ledger has the commitment %s", c)
	}
	if v, ok := jd.views.get(c); ok {
		return v, nil
	}
	return jd.views.put(c, viewOf(jd, idx, c, s.o.Game)), nil
}

// viewOf builds the view of commitment c from the judgement, judged under g.
func viewOf(jd *judgement, idx []int, c commit.Commitment, g secret.Game) *commitmentView {
	v := &commitmentView{Commitment: c.String(), JudgedAt: jd.at, key: c}
	for _, i := range idx {
		a := jd.j.Action(i)
		av := actionView{Index: a.Post.Index, Player: a.Post.Player, PlayerNotes: hiddenNotes(a.Post.Player, false), ActionType: a.Post.ActionType, Channel: a.Post.Channel,
			IntegratedAt: a.Post.IntegratedAt, PostedAt: a.Post.PostedAt, State: a.State, Maturation: a.Maturation,
			Revelation: a.Revelation, Failure: a.Failure, PhaseHelp: wrongPhaseHelp(g, a, jd.at), Declaration: a.Declaration, Decisions: a.Decisions, Flags: a.Flags,
			Reveals: []revealView{}, Edits: []editView{}}
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
		v.Actions = append(v.Actions, av)
	}
	return v
}

// commitmentPage is GET /c/{hash}.
func (s *Server) commitmentPage(c echo.Context) error {
	h, err := parseHash(c.Param("hash"))
	if err != nil {
		return err
	}
	v, err := s.lookupCommitment(h)
	if err != nil {
		return err
	}
	b, err := v.page(s.pages)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentLength, strconv.Itoa(len(b)))
	return c.HTMLBlob(http.StatusOK, b)
}

// page is the view's HTML page, rendered once: written by pageWriter (the
// template's bytes, faster), or by the template when pageWriter declines.
func (v *commitmentView) page(r *renderer) ([]byte, error) {
	v.htmlOnce.Do(func() {
		if b, ok := r.frame.commitmentPage(v); ok {
			v.html = b
			v.charge(len(b))
			return
		}
		var buf bytes.Buffer
		v.htmlErr = r.Render(&buf, "commitment", v, nil)
		v.html = buf.Bytes()
		v.charge(len(v.html))
	})
	return v.html, v.htmlErr
}

// apiCommitment is GET /api/v1/commitments/{hash}.
func (s *Server) apiCommitment(c echo.Context) error {
	h, err := parseHash(c.Param("hash"))
	if err != nil {
		return err
	}
	v, err := s.lookupCommitment(h)
	if err != nil {
		return err
	}
	b, err := v.encoded()
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentLength, strconv.Itoa(len(b)))
	return c.JSONBlob(http.StatusOK, b)
}

// encoded is the view's JSON (json.Marshal's bytes, marshalView), encoded once.
func (v *commitmentView) encoded() ([]byte, error) {
	v.once.Do(func() {
		v.json, v.jsonErr = marshalView(v)
		v.charge(len(v.json))
	})
	return v.json, v.jsonErr
}

// charge counts n bytes more held by the view against its cache's budget.
func (v *commitmentView) charge(n int) {
	if v.cache != nil {
		v.cache.charge(v.key, n)
	}
}
