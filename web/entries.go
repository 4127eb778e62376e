package web

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// PageSize is the number of entries on one /ledger page, and the most one
// GET /api/v1/entries returns.
const PageSize = 50

// entryRow is one entry in a list: what it is in a line, and where its
// subject lives on the site.
type entryRow struct {
	Index        int64
	Kind         ledger.Kind
	IntegratedAt time.Time
	PostedAt     time.Time
	Summary      string // one line, built from the entry's fields (escaped by the template)
	Link         string // the page of its subject: /c/{hash}, /replay/{result index}, /entry/{n}; "" if none
	LinkText     string
}

// rowOf describes e; an entry that does not decode is still listed.
func rowOf(e *ledger.Entry) entryRow {
	r := entryRow{Index: e.Index, Kind: e.Kind, IntegratedAt: e.IntegratedAt, PostedAt: e.PostedAt}
	b, err := e.Body()
	if err != nil {
		r.Summary = "undecodable entry: " + err.Error()
		return r
	}
	ref := func(p *int64) string {
		if p == nil {
			return "?"
		}
		return strconv.FormatInt(*p, 10)
	}
	switch e.Kind {
	case ledger.KindCommit:
		r.Summary = fmt.Sprintf("%s posted %s commitment in %s", b.Player, ledger.WithArticle(b.ActionType), b.Channel)
		r.Link, r.LinkText = "/c/"+b.Commitment, b.Commitment
	case ledger.KindReveal:
		r.Summary = fmt.Sprintf("%s revealed the text of entry %s", b.Player, ref(b.Commit))
		r.Link, r.LinkText = "/entry/"+ref(b.Commit), "entry "+ref(b.Commit)
	case ledger.KindEdit:
		r.Summary = fmt.Sprintf("%s edited the post of entry %s", b.Player, ref(b.Commit))
		r.Link, r.LinkText = "/entry/"+ref(b.Commit), "entry "+ref(b.Commit)
	case ledger.KindSeedCommit:
		r.Summary = fmt.Sprintf("seed commitment of %s match %s (%s)", b.Game, b.MatchID, b.RulesVersion)
	case ledger.KindSeedReveal:
		r.Summary = fmt.Sprintf("seed revealed for entry %s", ref(b.SeedCommit))
		r.Link, r.LinkText = "/entry/"+ref(b.SeedCommit), "entry "+ref(b.SeedCommit)
	case ledger.KindResult:
		r.Summary = fmt.Sprintf("result of %s match %s", gameName(b.Game), b.MatchID)
		r.Link, r.LinkText = "/replay/"+strconv.FormatInt(e.Index, 10), "replay"
	default:
		r.Summary = string(e.Kind)
	}
	return r
}

// looksLikeHash reports whether s has the shape of a SHA-256 hash: 64 hex
// digits in any case, optionally prefixed "sha256:" (commit.ParseCommitment,
// ledger.NormaliseDigest). Such input is always a hash, never an entry
// index, even when all its digits are 0-9.
func looksLikeHash(s string) bool {
	if len(s) > 7 && strings.EqualFold(s[:7], "sha256:") {
		s = s[7:]
	}
	_, err := hex.DecodeString(s)
	return len(s) == 64 && err == nil
}

// parseIndex reads a ledger index: a decimal integer >= 0.
func parseIndex(what, s string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(strings.TrimSpace(s), "-") {
		return 0, badRequest("%s %q is too large; expected a ledger index, a whole number from 0 to %d", what, s, int64(math.MaxInt64))
	}
	if err != nil || n < 0 {
		return 0, badRequest("%s %q: expected a ledger index, a whole number >= 0", what, s)
	}
	return n, nil
}

// homeView is the / page.
type homeView struct {
	Checkpoint *ledger.Checkpoint
	Size       int64
	Recent     []entryRow
	Query      string
}

// home is GET /: search, the latest checkpoint and the recent entries.
func (s *Server) home(c echo.Context) error {
	v := homeView{}
	size, err := s.o.Reader.Size()
	if err != nil {
		return err
	}
	v.Size = size
	if cp, err := s.o.Reader.LatestCheckpoint(); err == nil {
		v.Checkpoint = cp
	} else if !errors.Is(err, ledger.ErrNotFound) {
		return err
	}
	from := max(0, size-10)
	es, err := s.o.Reader.Entries(from, int(size-from))
	if err != nil {
		return err
	}
	for i := len(es) - 1; i >= 0; i-- {
		v.Recent = append(v.Recent, rowOf(&es[i]))
	}
	return c.Render(http.StatusOK, "home", v)
}

// search is GET /search?q=: a hash (64 hex digits, optionally prefixed
// sha256:, even when every digit is 0-9) goes to its commitment page, to
// its seed-commit entry, or to its replay (by its result entry when one
// names it); a shorter number is an entry index and goes to /entry/{n};
// anything else is a player's name and goes to the entries naming the
// player. A number past the ledger's end or a hash nothing has goes to
// the player of that name, if an entry names one (writers accept such
// names). A hash or a name the ledger does not hold is a 404.
func (s *Server) search(c echo.Context) error {
	q := strings.TrimSpace(c.QueryParam("q"))
	if q == "" {
		return badRequest("type a commitment, seed commitment or replay digest (64 hex characters), an entry index or a player's name")
	}
	if !looksLikeHash(q) && strings.TrimLeft(q, "0123456789") == "" {
		n, err := parseIndex("entry", q)
		if err == nil {
			if size, serr := s.o.Reader.Size(); serr != nil || n < size {
				return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/entry/%d", n))
			}
		}
		// No entry has that index: a player may have that name.
		if to, perr := s.playerSearch(q); perr != nil || to != "" {
			return redirectOr(c, to, perr)
		}
		if err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/entry/%d", n))
	}
	if !looksLikeHash(q) {
		idx, err := s.judge.entriesOfPlayer(q)
		if err != nil {
			return err
		}
		if len(idx) == 0 {
			return s.unknownPlayer(q, "no entry names the player %q, and it is not a hash (64 hex characters) or an entry index")
		}
		return c.Redirect(http.StatusSeeOther, "/ledger?player="+url.QueryEscape(q))
	}
	h, err := parseHash(q)
	if err != nil {
		return err
	}
	if _, idx, err := s.judge.lookup(h); err != nil {
		return err
	} else if len(idx) > 0 {
		return c.Redirect(http.StatusSeeOther, "/c/"+h.String())
	}
	if sc, err := s.judge.seedCommitsOf(h.String()); err != nil {
		return err
	} else if len(sc) > 0 {
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/entry/%d", sc[0]))
	}
	if rs, err := s.judge.resultsNaming(h.String()); err != nil {
		return err
	} else if len(rs) > 0 {
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/replay/%d", rs[0].Index))
	}
	if _, err := s.o.Reader.Replay(h.String()); err == nil {
		return c.Redirect(http.StatusSeeOther, "/replay/"+h.String())
	} else if !errors.Is(err, ledger.ErrNotFound) {
		return err
	}
	// Nothing has that hash: a player may have that name.
	if to, err := s.playerSearch(q); err != nil || to != "" {
		return redirectOr(c, to, err)
	}
	return notFound("the ledger has no commitment, seed commitment or replay with the hash %s", h)
}

// playerSearch returns the page of the entries naming the player q, or ""
// when no entry names q.
func (s *Server) playerSearch(q string) (string, error) {
	idx, err := s.judge.entriesOfPlayer(q)
	if err != nil || len(idx) == 0 {
		return "", err
	}
	return "/ledger?player=" + url.QueryEscape(q), nil
}

// unknownPlayer is the 404 of a player name no entry names (format has
// one %q, the name). When the name renders like a player's (the same
// confusable skeleton, ledger.PlayerLike: another Unicode normalisation
// form, a Cyrillic letter for a Latin one) whose entries the checked
// index holds, it names that player, both names spelled out, and links
// their entries: the two look the same on the page, and the writers
// refuse a second player of one skeleton, so that player is the one
// meant or the one imitated.
func (s *Server) unknownPlayer(name, format string) error {
	e := notFound(format, name)
	p, err := s.o.Reader.PlayerLike(name)
	if errors.Is(err, ledger.ErrNotFound) {
		return e
	}
	if err != nil {
		return err
	}
	if p.Player == name {
		return e
	}
	if idx, err := s.judge.entriesOfPlayer(p.Player); err != nil {
		return err
	} else if len(idx) == 0 {
		return e
	}
	e.msg = fmt.Sprintf("%s; it is written %s, and looks like the player %q, written %s: both have the Unicode confusable skeleton %q (UTS #39)",
		e.msg, strconv.QuoteToASCII(name), p.Player, strconv.QuoteToASCII(p.Player), p.Skeleton)
	e.link = "/ledger?player=" + url.QueryEscape(p.Player)
	e.linkText = fmt.Sprintf("The entries naming %q", p.Player)
	return e
}

// redirectOr answers err when it is set, else a 303 to to.
func redirectOr(c echo.Context, to string, err error) error {
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, to)
}

// ledgerView is a /ledger page.
type ledgerView struct {
	Player     string // the player the page is filtered to, or ""
	Size       int64
	Page       int64
	Pages      int64
	Rows       []entryRow
	Prev, Next int64 // 0 when there is none
}

// ledgerPage is GET /ledger?page=N: PageSize entries a page, newest first.
func (s *Server) ledgerPage(c echo.Context) error {
	page := int64(1)
	if p := c.QueryParam("page"); p != "" {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 1 {
			return badRequest("page %q: expected a page number, 1 or more", p)
		}
		page = n
	}
	if player := c.QueryParam("player"); player != "" {
		return s.playerPage(c, player, page)
	}
	size, err := s.o.Reader.Size()
	if err != nil {
		return err
	}
	pages := max(1, (size+PageSize-1)/PageSize)
	if page > pages {
		return notFound("page %d: the ledger has %d entries, %d pages", page, size, pages)
	}
	hi := size - (page-1)*PageSize
	lo := max(0, hi-PageSize)
	es, err := s.o.Reader.Entries(lo, int(hi-lo))
	if err != nil {
		return err
	}
	v := ledgerView{Size: size, Page: page, Pages: pages}
	for i := len(es) - 1; i >= 0; i-- {
		v.Rows = append(v.Rows, rowOf(&es[i]))
	}
	if page > 1 {
		v.Prev = page - 1
	}
	if page < pages {
		v.Next = page + 1
	}
	return c.Render(http.StatusOK, "ledger", v)
}

// playerPage is GET /ledger?player=NAME&page=N: the entries naming the
// player (commit, reveal, edit), PageSize a page, newest first.
func (s *Server) playerPage(c echo.Context, player string, page int64) error {
	idx, err := s.judge.entriesOfPlayer(player)
	if err != nil {
		return err
	}
	if len(idx) == 0 {
		return s.unknownPlayer(player, "no entry names the player %q")
	}
	size := int64(len(idx))
	pages := max(1, (size+PageSize-1)/PageSize)
	if page > pages {
		return notFound("page %d: %d entries name the player, %d pages", page, size, pages)
	}
	hi := size - (page-1)*PageSize
	lo := max(0, hi-PageSize)
	v := ledgerView{Player: player, Size: size, Page: page, Pages: pages}
	for i := hi - 1; i >= lo; i-- {
		e, err := s.o.Reader.Entry(idx[i])
		if err != nil {
			return err
		}
		v.Rows = append(v.Rows, rowOf(e))
	}
	if page > 1 {
		v.Prev = page - 1
	}
	if page < pages {
		v.Next = page + 1
	}
	return c.Render(http.StatusOK, "ledger", v)
}

// field is one field of an entry body, for display.
type field struct{ Name, Value string }

// seedCheck is the verdict on a seed-reveal entry: whether its seed hashes
// to the commitment of the seed-commit entry it names (commit.CheckSeed:
// SHA-256 over the 64 lowercase hex characters, docs/commitments.md
// "Seeds"), and on a mismatch the usual mistakes that would have matched
// (commit.SeedHints). It is shown on /entry/{n} and is the seed_check of
// GET /api/v1/entries/{n}.
type seedCheck struct {
	SeedCommit int64    `json:"seed_commit"`          // index of the seed-commit entry named
	Commitment string   `json:"commitment,omitempty"` // its seed commitment
	Match      bool     `json:"match"`
	Hints      []string `json:"hints"` // near misses, on a mismatch
	// Problem says why no check could be made (the named entry is missing
	// or not a seed-commit entry, or a value does not parse); Match is
	// false then.
	Problem string `json:"problem,omitempty"`
}

// seedCheckOf checks a seed-reveal entry's seed against the commitment of
// the seed-commit entry it names; nil for other kinds.
func (s *Server) seedCheckOf(e *ledger.Entry) *seedCheck {
	if e.Kind != ledger.KindSeedReveal {
		return nil
	}
	b, err := e.Body()
	if err != nil || b.SeedCommit == nil {
		return &seedCheck{SeedCommit: -1, Hints: []string{}, Problem: "the entry does not name a seed-commit entry"}
	}
	sc := &seedCheck{SeedCommit: *b.SeedCommit, Hints: []string{}}
	ce, err := s.o.Reader.Entry(*b.SeedCommit)
	if err != nil {
		sc.Problem = fmt.Sprintf("entry %d cannot be read: %v", *b.SeedCommit, err)
		return sc
	}
	cb, err := ce.Body()
	if err != nil || ce.Kind != ledger.KindSeedCommit {
		sc.Problem = fmt.Sprintf("entry %d is %s entry, not a seed-commit entry", ce.Index, ce.Kind.Article())
		return sc
	}
	sc.Commitment = cb.Commitment
	c, err := commit.ParseCommitment(cb.Commitment)
	if err != nil {
		sc.Problem = fmt.Sprintf("the seed commitment of entry %d does not parse: %v", ce.Index, err)
		return sc
	}
	seed, err := commit.ParseSeed(b.Seed)
	if err != nil {
		sc.Problem = fmt.Sprintf("the revealed seed does not parse: %v", err)
		return sc
	}
	sc.Match = commit.CheckSeed(seed, c)
	if !sc.Match {
		for _, h := range commit.SeedHints(seed, c) {
			sc.Hints = append(sc.Hints, h.Name)
		}
	}
	return sc
}

// entryView is the /entry/{n} page.
type entryView struct {
	Seed     *seedCheck // seed-reveal entries only
	Row      entryRow
	Fields   []field
	Leaf     string // indented
	LeafHash tlog.Hash
	Proof    *ledger.InclusionProof
	ProofOK  bool
	ProofErr string
	// Witnessed is the earliest witness cosignature covering the entry
	// ("witnessed by W by T"), nil if none yet.
	Witnessed *ledger.Witnessed
}

// entryPage is GET /entry/{n}: the entry, its leaf, and its inclusion
// proof against the latest checkpoint, checked here with the log's
// verifier key (ledger.CheckInclusion).
func (s *Server) entryPage(c echo.Context) error {
	n, err := parseIndex("entry", c.Param("index"))
	if err != nil {
		return err
	}
	e, err := s.entry(n)
	if err != nil {
		return err
	}
	v := entryView{Row: rowOf(e), LeafHash: e.LeafHash, Seed: s.seedCheckOf(e)}
	var pretty bytes.Buffer
	if json.Indent(&pretty, e.Leaf, "", "  ") == nil {
		v.Leaf = pretty.String()
	} else {
		v.Leaf = string(e.Leaf)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(e.Leaf, &obj) == nil {
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			val := string(obj[k])
			var str string
			if json.Unmarshal(obj[k], &str) == nil {
				val = str
			}
			v.Fields = append(v.Fields, field{k, val})
		}
	}
	p, err := s.o.Reader.ProveInclusion(n, 0)
	if errors.Is(err, ledger.ErrTampered) {
		v.ProofErr = "no inclusion proof: " + err.Error()
	} else if err != nil {
		v.ProofErr = "no inclusion proof yet: " + err.Error()
	} else {
		v.Proof = p
		if _, err := ledger.CheckInclusion(s.o.Reader.VerifierKey(), nil, p); err != nil {
			v.ProofErr = "the proof does not verify: " + err.Error()
		} else {
			v.ProofOK = true
		}
	}
	if v.Witnessed, err = s.o.Reader.WitnessedBy(c.Request().Context(), n); err != nil {
		return err
	}
	return c.Render(http.StatusOK, "entry", v)
}

// entry reads entry n; 404 when the ledger is shorter.
func (s *Server) entry(n int64) (*ledger.Entry, error) {
	e, err := s.o.Reader.Entry(n)
	if errors.Is(err, ledger.ErrNotFound) {
		size, _ := s.o.Reader.Size()
		return nil, notFound("no entry %d: the ledger has %d entries (0..%d)", n, size, size-1)
	}
	return e, err
}
