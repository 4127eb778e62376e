package web

import (
	"context"
	"errors"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/verify"
)

// apiCheckpoint is GET /api/v1/checkpoint: the latest signed checkpoint
// (ledger.Checkpoint: origin, size, root in base64, the signed note, the
// time it was signed).
func (s *Server) apiCheckpoint(c echo.Context) error {
	cp, err := s.o.Reader.LatestCheckpoint()
	if errors.Is(err, ledger.ErrNotFound) {
		return notFound("the ledger has no checkpoint yet")
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, cp)
}

// entriesPage is the JSON of GET /api/v1/entries.
type entriesPage struct {
	Size    int64          `json:"size"` // entries in the ledger
	Entries []ledger.Entry `json:"entries"`
}

// apiEntries is GET /api/v1/entries?from=K&n=N: up to N (default and most
// PageSize) entries from index K (default 0), in index order.
func (s *Server) apiEntries(c echo.Context) error {
	from, n := int64(0), int64(PageSize)
	var err error
	if q := c.QueryParam("from"); q != "" {
		if from, err = parseIndex("from", q); err != nil {
			return err
		}
	}
	if q := c.QueryParam("n"); q != "" {
		if n, err = strconv.ParseInt(q, 10, 64); err != nil || n < 1 || n > PageSize {
			return badRequest("n %q: expected a count from 1 to %d", q, PageSize)
		}
	}
	size, err := s.o.Reader.Size()
	if err != nil {
		return err
	}
	es, err := s.o.Reader.Entries(from, int(n))
	if err != nil {
		return err
	}
	if es == nil {
		es = []ledger.Entry{}
	}
	return c.JSON(http.StatusOK, entriesPage{Size: size, Entries: es})
}

// entryJSON is the answer of GET /api/v1/entries/{n}: the entry, and for a
// seed-reveal entry the verdict on its seed (seed_check).
type entryJSON struct {
	*ledger.Entry
	SeedCheck *seedCheck `json:"seed_check,omitempty"`
}

// apiEntry is GET /api/v1/entries/{n}: the entry (ledger.Entry: index,
// kind, leaf as JSON, leaf hash, times) and, for a seed-reveal entry,
// seed_check: whether its seed matches the seed commitment it names.
func (s *Server) apiEntry(c echo.Context) error {
	n, err := parseIndex("entry", c.Param("index"))
	if err != nil {
		return err
	}
	e, err := s.entry(n)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, entryJSON{Entry: e, SeedCheck: s.seedCheckOf(e)})
}

// checkpointOf returns the stored checkpoint of size (0: the latest); 404
// when there is none.
func (s *Server) checkpointOf(size int64) (*ledger.Checkpoint, error) {
	var cp *ledger.Checkpoint
	var err error
	if size == 0 {
		cp, err = s.o.Reader.LatestCheckpoint()
	} else {
		cp, err = s.o.Reader.CheckpointAt(size)
	}
	if errors.Is(err, ledger.ErrNotFound) {
		if size == 0 {
			return nil, notFound("the ledger has no checkpoint yet")
		}
		return nil, notFound("no checkpoint of size %d is stored", size)
	}
	return cp, err
}

// optionalSize reads an optional tree size query parameter; "" is 0.
func optionalSize(c echo.Context, name string) (int64, error) {
	q := c.QueryParam(name)
	if q == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(q, 10, 64)
	if err != nil || n < 1 {
		return 0, badRequest("%s %q: expected a tree size, a whole number >= 1", name, q)
	}
	return n, nil
}

// apiInclusion is GET /api/v1/proofs/inclusion/{n}?size=S: the RFC 6962
// inclusion proof of entry n in the tree of the stored checkpoint of S
// entries (default the latest), as ledger.InclusionProof. 404 when the
// entry or checkpoint does not exist, or no checkpoint covers the entry
// yet (checkpoints follow appends within a second).
func (s *Server) apiInclusion(c echo.Context) error {
	n, err := parseIndex("entry", c.Param("index"))
	if err != nil {
		return err
	}
	size, err := optionalSize(c, "size")
	if err != nil {
		return err
	}
	if _, err := s.entry(n); err != nil {
		return err
	}
	cp, err := s.checkpointOf(size)
	if err != nil {
		return err
	}
	if n >= cp.Size && size != 0 {
		// That checkpoint is fixed: retrying never helps.
		return notFound("entry %d was appended after the checkpoint of size %d; prove it against a later size (or omit size for the latest)", n, cp.Size)
	}
	if n >= cp.Size {
		return notFound("entry %d is not in the tree of checkpoint size %d; retry after the next checkpoint", n, cp.Size)
	}
	p, err := s.o.Reader.ProveInclusion(n, cp.Size)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

// apiConsistency is GET /api/v1/proofs/consistency?size1=A&size2=B: the
// RFC 6962 consistency proof that the tree of B entries (default the
// latest checkpoint) extends the tree of A, between their signed
// checkpoints (ledger.ConsistencyProof). 400 when a size is malformed or
// size1 > size2 (checked before any lookup); 404 when either checkpoint is
// not stored.
func (s *Server) apiConsistency(c echo.Context) error {
	if c.QueryParam("size1") == "" {
		return badRequest("size1 is required: the size of the older checkpoint")
	}
	size1, err := optionalSize(c, "size1")
	if err != nil {
		return err
	}
	size2, err := optionalSize(c, "size2")
	if err != nil {
		return err
	}
	if size2 != 0 && size1 > size2 {
		return badRequest("size1 %d is larger than size2 %d; expected 1 <= size1 <= size2", size1, size2)
	}
	cp2, err := s.checkpointOf(size2)
	if err != nil {
		return err
	}
	if size1 > cp2.Size {
		return badRequest("size1 %d is larger than size2 %d; expected 1 <= size1 <= size2", size1, cp2.Size)
	}
	if _, err := s.checkpointOf(size1); err != nil {
		return err
	}
	p, err := s.o.Reader.ProveConsistency(size1, cp2.Size)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

// appended is the JSON of a 201 from POST /api/v1/entries.
type appended struct {
	Index int64         `json:"index"`
	Entry *ledger.Entry `json:"entry,omitempty"`
}

// apiAppend is POST /api/v1/entries (bearer token): the body is an entry
// body (docs/ledger.md, ledger.ParseBody) appended with the server's
// signer key. 201 with the index; 415 unless the Content-Type is
// application/json (charset, if given, utf-8); 400 with {"error"} for a bad
// body or one verify.Admit refuses (a reveal of another player's commit,
// a seed-reveal whose seed does not hash to its commitment, a result whose
// replay_sha256 names no stored replay or whose config differs from its
// match's seed-commit); 409 with the
// existing index for a duplicate, and for a seed-commit whose commitment
// an earlier seed-commit holds (a seed is committed once); 401, 403, 413 and 429
// come from the middleware before.
func (s *Server) apiAppend(c echo.Context) error {
	if err := requireJSON(c); err != nil {
		return err
	}
	body, err := readBody(c)
	if err != nil {
		return err
	}
	b, err := ledger.ParseBody(body)
	if err == nil {
		// The admission every writer shares (verify.Admit); a body that
		// does not parse is left to Append, which says what is wrong.
		if _, err := verify.Admit(s.o.Writer, b, nil, time.Now()); err != nil {
			if c := seedReused(err); c != nil {
				return c
			}
			var ae *verify.AdmissionError
			if errors.As(err, &ae) {
				if ae.Field == "replay_sha256" && strings.Contains(ae.Msg, "names no replay stored") {
					return badRequest("bad entry: %v (sealed ledger append --replay FILE stores the replay and appends the result)", ae)
				}
				return badRequest("bad entry: %v", ae)
			}
			return err
		}
	}
	// Not the request's context: a client that half-closes its side after
	// sending (which cancels the request context) still gets the entry's
	// real outcome, and an append under way is never reported as refused.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), 10*time.Second)
	defer cancel()
	n, err := s.o.Writer.Append(ctx, body)
	if err != nil {
		// A seed-commit another writer's seed-commit of the same seed beat
		// to the log: refused as the admission refuses it, in its words.
		return appendError(verify.SeedReused(s.o.Writer, b, err))
	}
	// Answer once a signed checkpoint covers the entry (within the
	// checkpoint interval): the site's verdicts rest on checked leaves
	// only, so the entry is then looked up like any other. The entry is
	// durable either way; past the timeout the answer still says 201.
	s.o.Writer.WaitCheckpoint(ctx, n+1)
	s.judge.invalidate()
	out := appended{Index: n}
	if e, err := s.o.Writer.Entry(n); err == nil {
		out.Entry = e
	}
	return c.JSON(http.StatusCreated, out)
}

// requireJSON answers 415 unless the request's Content-Type is
// application/json (RFC 8259 section 11), with no charset or charset utf-8.
// curl -d sends application/x-www-form-urlencoded, so the message says
// which header to add.
func requireJSON(c echo.Context) error {
	ct := c.Request().Header.Get(echo.HeaderContentType)
	mt, params, err := mime.ParseMediaType(ct)
	if err == nil && mt == echo.MIMEApplicationJSON {
		if cs, ok := params["charset"]; !ok || strings.EqualFold(cs, "utf-8") {
			return nil
		}
	}
	if ct == "" {
		ct = "none"
	} else {
		ct = strconv.Quote(ct)
	}
	return errorf(http.StatusUnsupportedMediaType, "Content-Type %s: expected application/json (with curl: -H 'Content-Type: application/json')", ct)
}

// appendError maps an Append error to its answer: every error Append
// documents for input (a bad body, a reference to a missing entry or one
// of the wrong kind, a posted_at after the integration time) is 400, a
// duplicate 409 with the existing index; a closed ledger or a request that
// ran out of time 503; the ledger's write and clock failures are returned
// as they are, which handleError answers 503 with Retry-After, logged.
func appendError(err error) error {
	var de *ledger.DuplicateError
	var be *ledger.BodyError
	if c := seedReused(err); c != nil {
		return c
	}
	switch {
	case errors.As(err, &de):
		idx := de.Index
		return &httpError{code: http.StatusConflict, msg: de.Error(), index: &idx}
	case errors.As(err, &be):
		return badRequest("bad entry: %s", entryBodyMessage(be))
	case errors.Is(err, ledger.ErrReadOnly):
		return errorf(http.StatusForbidden, "the write API is disabled: the ledger is open read-only")
	case errors.Is(err, ledger.ErrClosed), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return errorf(http.StatusServiceUnavailable, "the ledger is not taking entries now; retry later")
	case errors.Is(err, ledger.ErrTampered):
		// The database holds rows the log did not write: the server
		// cannot append, and says why, with the status every answer
		// resting on altered data has (409), not a server fault's.
		return errorf(http.StatusConflict, "the ledger cannot take entries: %v", err)
	case strings.HasPrefix(err.Error(), "writing to the ledger"), strings.HasPrefix(err.Error(), "ledger clock"):
		return err
	}
	return badRequest("%v", err)
}

// seedReused is the 409 of a seed-commit whose commitment an earlier
// seed-commit holds (a seed is committed once), nil for another error:
// err is the *verify.AdmissionError naming the earlier entry and whether
// its seed-reveal made the seed public, from the admission or, for the
// writer that lost a race to the log, from verify.SeedReused; the answer
// is its message, with the earlier entry's index. A conflict with that
// entry, as a duplicate is, so without the "bad entry:" of a 400.
func seedReused(err error) *httpError {
	var ae *verify.AdmissionError
	var de *ledger.DuplicateError
	if !errors.As(err, &ae) || !errors.As(err, &de) {
		return nil
	}
	idx := de.Index
	return &httpError{code: http.StatusConflict, msg: ae.Error(), index: &idx}
}
