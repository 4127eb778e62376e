package web

import (
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/tiles"
	"github.com/sealedhq/sealed/rules/secret"
)

// Defaults of Options.
const (
	// DefaultBodyLimit is the largest request body accepted, in bytes
	// (64 KiB): an entry body, or a reveal pasted on /verify.
	DefaultBodyLimit = 64 << 10
	// DefaultWriteRate is the per-client rate of POST requests, per second,
	// and DefaultWriteBurst the burst above it.
	DefaultWriteRate  = 2.0
	DefaultWriteBurst = 20
	// DefaultJudgeTTL is how long a judgement of the ledger's secret
	// actions is reused before the ledger is checked for new entries (a
	// judgement is recomputed only when the ledger grew or a maturation or
	// revelation date passed).
	DefaultJudgeTTL = time.Second
)

// Options configure New.
type Options struct {
	// Reader is the ledger the pages and the read API use; open it with
	// ledger.Options{ReadOnly: true}. Required.
	Reader *ledger.Ledger
	// Writer appends the entries of POST /api/v1/entries (it holds the
	// signer key). Nil disables the write API: it answers 403.
	Writer *ledger.Ledger
	// Token is the bearer token the write API requires (compared in
	// constant time). Empty disables the write API: it answers 403.
	Token string
	// Game is the secret-action configuration (phase calendar zone, action
	// type settings) the commitment pages judge with; the zero value is
	// seed 004's defaults in UTC.
	Game secret.Game
	// Now gives the instant secret actions are judged at; nil means
	// time.Now.
	Now func() time.Time
	// BodyLimit is the largest request body in bytes; 0 means
	// DefaultBodyLimit. A larger body is answered 413.
	BodyLimit int64
	// WriteRate (requests per second, > 0) and WriteBurst bound each
	// client's POST requests (the write API and /verify); 0 means the
	// defaults. Over the limit the answer is 429.
	WriteRate  float64
	WriteBurst int
	// ReadRate and ReadBurst bound each client's other requests; 0 means
	// no limit.
	ReadRate  float64
	ReadBurst int
	// JudgeTTL is how long a judgement of the secret actions is reused
	// before the ledger is checked for entries appended by another
	// process; 0 means DefaultJudgeTTL. The server's own appends, and a
	// lookup of a commitment the judgement lacks, check at once.
	JudgeTTL time.Duration
	// Log receives server errors (answers 500); nil discards them.
	Log io.Writer
}

// Server is the site and the JSON API: an http.Handler.
type Server struct {
	o       Options
	e       *echo.Echo
	pages   *renderer
	judge   *judgeCache
	reports *reportCache
	ties    *tieCache
	helps   atomic.Pointer[phaseHelps] // the phase help texts of the latest judgement instant
	log     *log.Logger
}

// New builds the site on o.Reader. It returns an error when o.Reader is nil
// or a limit is negative.
func New(o Options) (*Server, error) {
	if o.Reader == nil {
		return nil, errors.New("web: Options.Reader is required (a ledger opened read-only)")
	}
	if o.BodyLimit < 0 || o.WriteRate < 0 || o.WriteBurst < 0 || o.ReadRate < 0 || o.ReadBurst < 0 || o.JudgeTTL < 0 {
		return nil, errors.New("web: limits must not be negative")
	}
	if o.BodyLimit == 0 {
		o.BodyLimit = DefaultBodyLimit
	}
	if o.WriteRate == 0 {
		o.WriteRate = DefaultWriteRate
	}
	if o.WriteBurst == 0 {
		o.WriteBurst = DefaultWriteBurst
	}
	if o.JudgeTTL == 0 {
		o.JudgeTTL = DefaultJudgeTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if err := o.Game.Validate(); err != nil {
		return nil, fmt.Errorf("web: game settings: %w", err)
	}
	pages, err := newRenderer()
	if err != nil {
		return nil, err
	}
	s := &Server{o: o, pages: pages, log: log.New(o.Log, "sealed web: ", log.LstdFlags),
		judge: newJudgeCache(o.Reader, o.Game, o.Now, o.JudgeTTL), reports: newReportCache(64), ties: newTieCache(256)}
	s.e = s.routes()
	return s, nil
}

// Warm judges the ledger's secret actions now, as the first commitment
// lookup would otherwise do, so a server warmed before it listens answers
// its first lookup without that wait. Its error is the judgement's, which
// the lookups then answer with too.
func (s *Server) Warm() error {
	_, err := s.judge.get()
	return err
}

// ServeHTTP serves the site: the security headers on every answer
// (shared values, set before echo so that no per-request middleware is
// needed for them), then echo's router and middleware.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	setSecurityHeaders(w.Header())
	s.e.ServeHTTP(w, r)
}

// HTTPServer returns an *http.Server for s on addr with timeouts that bound
// slow clients: 5 s to read the headers (at most 16 KiB), 15 s for the
// whole request, 30 s to write the answer, 2 minutes idle.
func (s *Server) HTTPServer(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           s,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          s.log,
	}
}

// routes builds the echo instance: middleware, pages and the API.
func (s *Server) routes() *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Logger.SetOutput(s.o.Log)
	e.IPExtractor = echo.ExtractIPDirect() // rate limits key on the peer address, never on headers a client sets
	e.HTTPErrorHandler = s.handleError
	e.JSONSerializer = jsonSerializer{}
	e.Renderer = s.pages
	// The security headers are set by ServeHTTP, before echo. Only POST
	// routes read a body: the body limit is theirs.
	e.Use(middleware.RecoverWithConfig(recoverConfig(s.log)))
	limit := middleware.BodyLimit(fmt.Sprintf("%dB", s.o.BodyLimit))
	if s.o.ReadRate > 0 {
		e.Use(rateLimit(s.o.ReadRate, s.o.ReadBurst, func(c echo.Context) bool { return c.Request().Method == http.MethodPost }))
	}
	writes := rateLimit(s.o.WriteRate, s.o.WriteBurst, nil)

	// Every GET route answers HEAD too (net/http drops the body).
	get := func(path string, h echo.HandlerFunc) { e.Match([]string{http.MethodGet, http.MethodHead}, path, h) }
	get("/", s.home)
	get("/search", s.search)
	get("/c/:hash", s.commitmentPage)
	get("/hash", s.hashPage)
	get("/verify", s.verifyForm)
	e.POST("/verify", s.verifyPost, limit, writes)
	get("/ledger", s.ledgerPage)
	get("/entry/:index", s.entryPage)
	// C2SP tlog-tiles: the checkpoint (with witness cosignatures), hash
	// tiles and entry bundles (package ledger/tiles).
	// The checkpoint is read at most once a second (it may be cached 5 s),
	// and served only when the stored note verifies and the log has not
	// gone back behind a checkpoint the site read before, on any page:
	// the handler knows only what it served itself, so the latest is read
	// again through the Reader, which refuses a rollback (after the
	// handler's read: a rollback since shows there, a newer checkpoint is
	// no false alarm).
	tl := echo.WrapHandler(&tiles.Handler{Store: s.o.Reader.Store(), Log: slog.New(slog.NewTextHandler(s.o.Log, nil)), CheckpointMemo: time.Second,
		Check: func(c *ledger.StoredCheckpoint) error {
			if _, err := s.o.Reader.VerifyCheckpoint(c); err != nil {
				return err
			}
			_, err := s.o.Reader.LatestCheckpoint()
			return err
		}})
	get("/checkpoint", tl)
	get("/tile/*", tl)
	get("/tree", s.treePage)
	get("/readings", s.readingsPage)
	get("/replay/:id", s.replayPage)
	get("/operators", s.operatorsPage)
	get("/static/*", s.static)

	get("/api/v1/checkpoint", s.apiCheckpoint)
	get("/api/v1/entries", s.apiEntries)
	get("/api/v1/entries/:index", s.apiEntry)
	get("/api/v1/commitments/:hash", s.apiCommitment)
	get("/api/v1/proofs/inclusion/:index", s.apiInclusion)
	get("/api/v1/proofs/consistency", s.apiConsistency)
	get("/api/v1/replays/:id/report", s.apiReplayReport)
	e.POST("/api/v1/verify", s.apiVerify, limit, writes)
	e.POST("/api/v1/entries", s.apiAppend, limit, writes, s.writeEnabled, s.bearer())
	return e
}
