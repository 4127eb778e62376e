package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/auction"
	"github.com/sealedhq/sealed/verify"
)

// replayView is the /replay/{id} page: the re-simulation report
// (verify.CheckReplay) of a stored replay and, when the replay decodes,
// its charts and tables.
type replayView struct {
	Digest   string
	Bytes    int
	Format   string
	Report   *verify.Report
	Clean    bool
	CheckErr string
	Auction  *auctionView
	Bargain  *bargainView
	// DiffsShown are the differences the page lists (at most
	// maxPageRows; the JSON report has them all); DiffsOmitted counts the
	// rest.
	DiffsShown   []verify.Difference
	DiffsOmitted int
}

// auctionView is what the page shows of a Blind Auction replay.
type auctionView struct {
	Config         auction.Config
	Seats          []string
	SeedCommitment string
	Seed           string
	Items          []auctionItem
	Bids           chart
	Profit         chart
	Ranking        []auction.Standing
	Pot, Rake      string
	Payouts        []auction.SeatPayout
	Talk           []talkLine
	// ItemsOmitted and TalkOmitted count the rows past maxPageRows the
	// page leaves out (bound).
	ItemsOmitted, TalkOmitted int
}

// talkLine is one thing a seat said: player text, always escaped.
type talkLine struct {
	Item    int
	Seat    int
	Message string
}

// bargainView is what the page shows of a Negotiation Games replay.
type bargainView struct {
	// Engine is set for a replay the engine wrote itself: it carries an
	// integer EngineSeed and seat Aliases instead of a seed and commitment.
	Engine         bool
	EngineSeed     int64
	ItemNames      [3]string
	MaxTurns       int
	SeedCommitment string
	Seed           string
	Seats          []string // policy names
	Aliases        []string // engine: the names the seats played under
	Matches        []bargainMatch
	Results        []bargainSeat
	Reason         string
	Played, Max    int
	Scores         chart
}

type bargainMatch struct {
	Match   int
	Seats   [2]int
	Opener  int
	Pool    [3]int
	Values  [2][3]int
	Offers  []bargainMove
	Outcome string
	Payoff  [2]int
	Turns   int
}

type bargainMove struct {
	Kind string // offer or accept
	Turn int
	Seat int
	Take [3]int // what the moving seat takes (offer: asks for; accept: gets)
	// Worth is in the match's seat order (bargainMatch.Seats), on every
	// row: what the split is worth to seats[0] and to seats[1]. The
	// replay's offer events give [mover, other] and its accept events the
	// payoff in seat order; bargainOf puts both in seat order.
	Worth [2]int
	Text  string // what the seat wrote, escaped
}

type bargainSeat struct {
	Seat           int
	Name           string
	Alias          string // engine replays: the seat's alias
	Points         int
	Matches, Deals int
	Score          string // exact decimal as the replay writes it
	Giveaway       string
}

// bargainJSON is the part of a negotiation.replay.v1 replay the page draws
// (docs/replays.md); numbers that are decimals stay json.Number, exact.
type bargainJSON struct {
	Protocol string   `json:"protocol"` // the engine's dialect
	Names    []string `json:"names"`    // the engine's seat aliases
	Config   struct {
		Seed      int64     `json:"seed"` // the engine's integer seed
		MaxTurns  int       `json:"maxTurns"`
		ItemNames [3]string `json:"itemNames"`
	} `json:"config"`
	SeedCommitment string   `json:"seed_commitment"`
	Seed           string   `json:"seed"`
	PolicyNames    []string `json:"policyNames"`
	Events         []struct {
		Kind    string    `json:"kind"`
		Match   int       `json:"match"`
		Seats   [2]int    `json:"seats"`
		Opener  int       `json:"opener"`
		Pool    [3]int    `json:"pool"`
		Values  [2][3]int `json:"values"`
		Turn    int       `json:"turn"`
		Seat    int       `json:"seat"`
		Take    [3]int    `json:"take"`
		Worth   [2]int    `json:"worth"`
		Payoff  [2]int    `json:"payoff"`
		Outcome string    `json:"outcome"`
		Text    string    `json:"text"`
	} `json:"events"`
	Results struct {
		Scores        []json.Number `json:"scores"`
		Points        []int         `json:"points"`
		Matches       []int         `json:"matches"`
		Deals         []int         `json:"deals"`
		Giveaway      []json.Number `json:"giveaway"`
		MatchesPlayed int           `json:"matchesPlayed"`
		MaxMatches    int           `json:"maxMatches"`
		Reason        string        `json:"reason"`
	} `json:"results"`
}

// reportCache keeps the views of recently shown replays; a replay is
// immutable under its digest, so a view never goes stale.
type reportCache struct {
	mu  sync.Mutex
	max int
	m   map[string]*replayView
}

func newReportCache(n int) *reportCache { return &reportCache{max: n, m: map[string]*replayView{}} }

func (rc *reportCache) get(digest string) *replayView {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.m[digest]
}

func (rc *reportCache) put(digest string, v *replayView) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.m) >= rc.max {
		for k := range rc.m { // drop any one
			delete(rc.m, k)
			break
		}
	}
	rc.m[digest] = v
}

// replayDigest reads a replay id: its SHA-256 digest (64 hex digits, even
// when all are 0-9), or the ledger index of the result entry that names it.
// result is that index, or -1 when id is a digest.
func (s *Server) replayDigest(id string) (digest string, result int64, err error) {
	id = strings.TrimSpace(id)
	if id != "" && !looksLikeHash(id) && strings.TrimLeft(id, "0123456789") == "" {
		n, err := parseIndex("result entry", id)
		if err != nil {
			return "", -1, err
		}
		e, err := s.entry(n)
		if err != nil {
			return "", -1, err
		}
		if e.Kind != ledger.KindResult {
			return "", -1, notFound("entry %d is a %s entry, not a result entry", n, e.Kind)
		}
		b, err := e.Body()
		if err != nil {
			return "", -1, err
		}
		return b.ReplaySHA256, n, nil
	}
	d, err := ledger.NormaliseDigest(id)
	if err != nil {
		return "", -1, badRequest("malformed replay id: %v; expected the replay's SHA-256 or its result entry's index", err)
	}
	return d, -1, nil
}

// replayOf loads and checks the replay id names and, when id is a result
// entry's index, checks that entry against the ledger (Ledger is nil for a
// digest: the same replay may be named by several results, or by none).
func (s *Server) replayOf(id string) (*replayPageView, error) {
	d, n, err := s.replayDigest(id)
	if err != nil {
		return nil, err
	}
	v := s.reports.get(d)
	if v == nil {
		data, err := s.o.Reader.Replay(d)
		if errors.Is(err, ledger.ErrNotFound) {
			return nil, notFound("no replay with the digest %s is stored", d)
		}
		if err != nil {
			return nil, err
		}
		v = analyse(d, data)
		s.reports.put(d, v)
	}
	p := &replayPageView{replayView: v, Result: n}
	if p.Results, err = s.results.resultsNaming(s.o.Reader, d); err != nil {
		return nil, err
	}
	p.Title = gameName(v.Format) + " replay " + d[:12]
	for _, r := range p.Results {
		if n < 0 || r.Index == n {
			p.Title = r.Game + " match " + r.MatchID
			break
		}
	}
	if n >= 0 {
		if p.Ledger, err = s.ledgerTie(n); err != nil {
			return nil, err
		}
		if c := p.Ledger.Check; c != nil && c.Replay != nil && c.Replay != v.Report {
			// The ledger's re-check is the stronger report: an engine
			// replay held to the revealed seed, the counted contributions
			// and the round a seed-reveal records (the match seed).
			byIndex := *v
			byIndex.Report, byIndex.Clean = c.Replay, c.Replay.Clean()
			byIndex.DiffsShown, byIndex.DiffsOmitted = nil, 0
			byIndex.boundReport()
			p.replayView = &byIndex
		}
	}
	return p, nil
}

// replayPageView is the data of /replay/{id}: the replay's view (cached
// by digest) and, for a result entry's index, the ledger check.
type replayPageView struct {
	*replayView
	Result int64 // the result entry's index, -1 when the page is by digest
	Ledger *ledgerTieView
	// Results are the result entries naming the replay (each links the
	// stronger page, /replay/{index}); Title names the replay by game and
	// match id (by its format and digest when no result names it).
	Results []replayResult
	Title   string
}

// analyse re-simulates a replay and builds its view.
func analyse(digest string, data []byte) *replayView {
	v := &replayView{Digest: digest, Bytes: len(data)}
	var head struct {
		Format string `json:"format"`
	}
	_ = json.Unmarshal(data, &head)
	v.Format = head.Format
	rep, err := verify.CheckReplay(data)
	if err != nil {
		v.CheckErr = err.Error()
		return v
	}
	if rep.Differences == nil {
		rep.Differences = []verify.Difference{} // docs/web.md: a list, [] when clean, never null
	}
	v.Report, v.Clean = rep, rep.Clean()
	defer v.bound()
	switch rep.Format {
	case verify.FormatAuction:
		var r auction.Replay
		if json.Unmarshal(data, &r) == nil {
			v.Auction = auctionOf(&r)
		}
	case verify.FormatBargain:
		var r bargainJSON
		if json.Unmarshal(data, &r) == nil {
			v.Bargain = bargainOf(&r)
		}
	}
	return v
}

func auctionOf(r *auction.Replay) *auctionView {
	p := r.Config.Players
	v := &auctionView{Config: r.Config, SeedCommitment: r.SeedCommitment, Seed: r.Seed, Ranking: r.Results.Ranking, Payouts: r.Results.Payouts}
	for s := range p {
		name := "seat"
		if s < len(r.Seats) && r.Seats[s] != "" {
			name = r.Seats[s]
		}
		v.Seats = append(v.Seats, name)
	}
	if r.Results.Pot != nil {
		v.Pot = r.Results.Pot.String()
	}
	if r.Results.Rake != nil {
		v.Rake = r.Results.Rake.String()
	}
	byItem := map[int]*auctionItem{}
	profits := make([]int, p)
	for _, e := range r.Events {
		it := byItem[e.Item]
		if it == nil && e.Item >= 1 && e.Item <= r.Config.Items {
			it = &auctionItem{Item: e.Item, Bids: make([]int, p), Winner: -1}
			byItem[e.Item] = it
		}
		switch e.Type {
		case "bids_revealed":
			for _, b := range e.Bids {
				if it != nil && b.Seat >= 0 && b.Seat < p {
					it.Bids[b.Seat] = b.Amount
				}
			}
		case "item_result":
			if it != nil && e.Winner != nil && !e.Unsold && *e.Winner >= 0 && *e.Winner < p {
				it.Winner = *e.Winner
				it.Price, it.Value, it.Profit = deref(e.Price), deref(e.Value), deref(e.Profit)
			}
		case "action", "bid_placed":
			if e.Message != nil && e.Seat != nil {
				v.Talk = append(v.Talk, talkLine{Item: e.Item, Seat: *e.Seat, Message: *e.Message})
			}
		case "auction_end":
			for _, ps := range e.Players {
				if ps.Seat >= 0 && ps.Seat < p {
					profits[ps.Seat] = ps.Profit
				}
			}
		}
	}
	for i := 1; i <= r.Config.Items; i++ {
		if it := byItem[i]; it != nil {
			v.Items = append(v.Items, *it)
		}
	}
	v.Bids = bidChart(v.Items, v.Seats, r.Config.ValueMax)
	v.Profit = profitChart(profits, v.Seats)
	return v
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func bargainOf(r *bargainJSON) *bargainView {
	v := &bargainView{ItemNames: r.Config.ItemNames, MaxTurns: r.Config.MaxTurns, SeedCommitment: r.SeedCommitment, Seed: r.Seed,
		Reason: r.Results.Reason, Played: r.Results.MatchesPlayed, Max: r.Results.MaxMatches,
		Engine: r.Protocol != "", EngineSeed: r.Config.Seed}
	for s := range 3 {
		name := "seat"
		if s < len(r.PolicyNames) && r.PolicyNames[s] != "" {
			name = r.PolicyNames[s]
		}
		v.Seats = append(v.Seats, name)
		if v.Engine {
			alias := ""
			if s < len(r.Names) {
				alias = r.Names[s]
			}
			v.Aliases = append(v.Aliases, alias)
		}
	}
	var cur *bargainMatch
	for _, e := range r.Events {
		switch e.Kind {
		case "match":
			v.Matches = append(v.Matches, bargainMatch{Match: e.Match, Seats: e.Seats, Opener: e.Opener, Pool: e.Pool, Values: e.Values})
			cur = &v.Matches[len(v.Matches)-1]
		case "offer", "accept":
			if cur != nil {
				w := e.Payoff // accept: the payoff, in seat order
				if e.Kind == "offer" {
					w = e.Worth // [mover, other]
					if e.Seat == cur.Seats[1] && e.Seat != cur.Seats[0] {
						w = [2]int{e.Worth[1], e.Worth[0]}
					}
				}
				cur.Offers = append(cur.Offers, bargainMove{Kind: e.Kind, Turn: e.Turn, Seat: e.Seat, Take: e.Take, Worth: w, Text: e.Text})
			}
		case "matchEnd":
			if cur != nil {
				cur.Outcome, cur.Payoff, cur.Turns = e.Outcome, e.Payoff, e.Turn
			}
		}
	}
	res := r.Results
	var scores []string
	for s := range 3 {
		bs := bargainSeat{Seat: s, Name: v.Seats[s]}
		if v.Engine {
			bs.Alias = v.Aliases[s]
		}
		if s < len(res.Points) {
			bs.Points = res.Points[s]
		}
		if s < len(res.Matches) {
			bs.Matches = res.Matches[s]
		}
		if s < len(res.Deals) {
			bs.Deals = res.Deals[s]
		}
		if s < len(res.Scores) {
			bs.Score = res.Scores[s].String()
			scores = append(scores, bs.Score)
		}
		if s < len(res.Giveaway) {
			bs.Giveaway = res.Giveaway[s].String()
		}
		v.Results = append(v.Results, bs)
	}
	if len(scores) == 3 {
		if c, err := scoreChart(scores, v.Seats); err == nil {
			v.Scores = c
		}
	}
	return v
}

// replayPage is GET /replay/{id}.
func (s *Server) replayPage(c echo.Context) error {
	v, err := s.replayOf(c.Param("id"))
	if err != nil {
		return err
	}
	return c.Render(http.StatusOK, "replay", v)
}

// replayReport is the JSON of GET /api/v1/replays/{id}/report.
type replayReport struct {
	Digest string         `json:"replay_sha256"`
	Clean  bool           `json:"clean"` // the re-simulation's verdict (report), not the ledger's
	Report *verify.Report `json:"report,omitempty"`
	Error  string         `json:"error,omitempty"` // the replay could not be checked at all
	// Ledger is verify.CheckResult's answer when id is a result entry's
	// index; LedgerError says why it could not be made.
	Ledger      *verify.ResultCheck `json:"ledger,omitempty"`
	LedgerError string              `json:"ledger_error,omitempty"`
}

// apiReplayReport is GET /api/v1/replays/{id}/report: the re-simulation
// report of a stored replay and, for a result entry's index, the check of
// that entry against the ledger's seed commitment (docs/web.md).
func (s *Server) apiReplayReport(c echo.Context) error {
	v, err := s.replayOf(c.Param("id"))
	if err != nil {
		return err
	}
	out := replayReport{Digest: v.Digest, Clean: v.Clean, Report: v.Report}
	if v.CheckErr != "" {
		out = replayReport{Digest: v.Digest, Error: fmt.Sprintf("the replay cannot be checked: %s", v.CheckErr)}
	}
	if v.Ledger != nil {
		out.Ledger, out.LedgerError = v.Ledger.Check, v.Ledger.Err
	}
	return c.JSON(http.StatusOK, out)
}
