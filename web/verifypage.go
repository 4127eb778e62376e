package web

import (
	"fmt"
	"math"
	"net/http"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/labstack/echo/v4"
	"github.com/sealedhq/sealed/commit"
)

// verifyView is the /verify page: the form's values and, after a check,
// the verdict.
type verifyView struct {
	Hash      string
	Reveal    string
	KeepCRLF  bool
	Checked   bool
	Verdict   *verdict
	Error     string
	InLedger  bool // a commit entry carries the hash
	LinkedTo  string
	Converted bool // CRLF line breaks were turned into LF
	// Notes name each character of the checked reveal that the text box
	// shows as nothing or that reorders the text around it (hiddenNotes),
	// with its byte offset: the box must hold the bytes themselves.
	Notes []string
}

// verdict is the outcome of a server-side check of a reveal against a hash
// (commit.Verify: exact bytes, near-miss hints on a mismatch; commit.AuditSalt
// for the salt's strength). It is also the JSON of POST /api/v1/verify.
type verdict struct {
	Match      bool     `json:"match"`
	Commitment string   `json:"commitment"`
	Got        string   `json:"got"` // SHA-256 of the revealed bytes
	Bytes      int      `json:"bytes"`
	Hints      []string `json:"hints"`
	// WeakSalt is set when the salt makes the commitment brute-forceable
	// (under 2^64 guesses, commit.WeakBits); GuessesLog2 is the estimate.
	WeakSalt    bool    `json:"weak_salt"`
	GuessesLog2 float64 `json:"guesses_log2"`
}

// check verifies reveal against c.
func check(c commit.Commitment, reveal []byte) *verdict {
	res := commit.Verify(c, reveal)
	v := &verdict{Match: res.Match, Commitment: res.Commitment.String(), Got: res.Got.String(), Bytes: len(reveal), Hints: []string{}}
	for _, h := range res.Hints {
		v.Hints = append(v.Hints, h.Name)
	}
	sa := commit.AuditSalt(reveal)
	v.WeakSalt = sa.Weak
	v.GuessesLog2 = math.Round(sa.GuessesLog2*10) / 10
	return v
}

// verifyForm is GET /verify: the empty form (hash prefilled by ?hash=).
func (s *Server) verifyForm(c echo.Context) error {
	return c.Render(http.StatusOK, "verify", verifyView{Hash: formText(c.QueryParam("hash"))})
}

// formText is a form field's value as the page shows it again: the page
// is UTF-8, so bytes that are not (a client may send any) show as U+FFFD
// rather than be written raw into it.
func formText(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// verifyPost is POST /verify (form fields hash, reveal, newlines: "lf",
// the default, or "crlf"; any other value is a 400 re-showing the form). An
// empty reveal is checked like any other, as `sealed verify --text ""`
// does: it matches only the SHA-256 of no bytes. It
// stores nothing, so it needs no CSRF token. Browsers send a text box's
// line breaks as CRLF (HTML form submission); unless the form says the
// reveal really has CRLF, they are turned back into LF, the form `sealed
// commit` writes, and the page says so.
func (s *Server) verifyPost(c echo.Context) error {
	v := verifyView{Hash: c.FormValue("hash"), Reveal: c.FormValue("reveal"), KeepCRLF: c.FormValue("newlines") == "crlf", Checked: true}
	if nl := c.FormValue("newlines"); nl != "" && nl != "lf" && nl != "crlf" {
		v.Error = fmt.Sprintf("line breaks %q: expected lf (turn the browser's CRLF into LF) or crlf (keep them)", nl)
		v.Hash, v.Reveal = formText(v.Hash), formText(v.Reveal)
		return c.Render(http.StatusBadRequest, "verify", v)
	}
	reveal := v.Reveal
	if !v.KeepCRLF && strings.Contains(reveal, "\r\n") {
		reveal = strings.ReplaceAll(reveal, "\r\n", "\n")
		v.Converted = true
	}
	h, err := commit.ParseCommitment(v.Hash)
	switch {
	case err != nil:
		v.Error = "malformed hash: " + err.Error()
	default:
		v.Verdict = check(h, []byte(reveal))
		v.Notes = hiddenNotes(reveal, false)
		if _, idx, err := s.judge.lookup(h); err == nil && len(idx) > 0 {
			v.InLedger, v.LinkedTo = true, h.String()
		}
	}
	code := http.StatusOK
	if v.Error != "" {
		code = http.StatusBadRequest
	}
	v.Hash, v.Reveal = formText(v.Hash), formText(v.Reveal)
	return c.Render(code, "verify", v)
}

// verifyRequest is the body of POST /api/v1/verify.
type verifyRequest struct {
	Commitment string  `json:"commitment"`
	Reveal     *string `json:"reveal"`
}

// apiVerify is POST /api/v1/verify: {"commitment": H, "reveal": TEXT} gives
// the verdict; the bytes are checked exactly as sent (JSON strings keep
// line breaks as they are). The body must be I-JSON (RFC 7493): valid
// UTF-8, no lone surrogate escape such as "\ud800" (encoding/json would
// hash it as U+FFFD, bytes nobody sent), no duplicate member names, no
// unknown member; otherwise 400. An empty reveal is checked like any other
// (as `sealed verify --text ""` does): it matches only the SHA-256 of no
// bytes. A missing or null reveal is 400.
func (s *Server) apiVerify(c echo.Context) error {
	body, err := readBody(c)
	if err != nil {
		return err
	}
	var req verifyRequest
	if err := json.Unmarshal(body, &req, json.RejectUnknownMembers(true)); err != nil {
		return badRequest("%s", verifyBodyMessage(body, err))
	}
	if req.Reveal == nil {
		return badRequest("reveal is required: the exact text committed to")
	}
	h, err := parseHash(req.Commitment)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, check(h, []byte(*req.Reveal)))
}
