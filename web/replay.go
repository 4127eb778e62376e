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
	"github.com/sealedhq/sealed/rules/bargain"
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
	// Complete is set when the re-simulation reached the auction's end:
	// only then are Ranking and the payouts derived.
	Complete bool
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
	Score          string // derived, as the dialect writes it (verify.BargainDerivation)
	Giveaway       string
}

// bargainJSON is what the page takes from a negotiation.replay.v1 replay
// itself: its header and informational fields. Everything the rules
// derive (pools, values, moves, outcomes, results, the engine's aliases)
// comes from the re-simulation (verify.BargainDerivation), never from the
// replay's claims.
type bargainJSON struct {
	Protocol string `json:"protocol"` // the engine's dialect
	Config   struct {
		Seed     int64 `json:"seed"` // the engine's integer seed
		MaxTurns int   `json:"maxTurns"`
	} `json:"config"`
	SeedCommitment string   `json:"seed_commitment"`
	Seed           string   `json:"seed"`
	PolicyNames    []string `json:"policyNames"`
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
			return "", -1, notFound("entry %d is %s entry, not a result entry", n, e.Kind.Article())
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
		if errors.Is(err, ledger.ErrNotFound) && n >= 0 {
			// A result's replay is stored before the result is admitted:
			// gone, it is a replays row deleted (the audit's finding).
			return nil, verify.MissingReplay(n, d)
		}
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
	if p.Results, err = s.judge.resultsNaming(d); err != nil {
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
	rep, d, err := verify.CheckReplayDerived(data, verify.ReplayOptions{})
	if err != nil {
		v.CheckErr = err.Error()
		return v
	}
	if rep.Differences == nil {
		rep.Differences = []verify.Difference{} // docs/web.md: a list, [] when clean, never null
	}
	v.Report, v.Clean = rep, rep.Clean()
	defer v.bound()
	switch {
	case d.Auction != nil:
		var r auction.Replay
		if json.Unmarshal(data, &r) == nil {
			v.Auction = auctionOf(&r, d.Auction)
		}
	case d.Bargain != nil:
		var r bargainJSON
		if json.Unmarshal(data, &r) == nil {
			v.Bargain = bargainOf(&r, d.Bargain)
		}
	}
	return v
}

// auctionOf builds the page of an auction replay r: its table, seats and
// talk as the replay gives them (inputs), and every bid, result, standing,
// ranking and payout as the re-simulation derived them (d), so that a
// claimed value shows only in the differences.
func auctionOf(r *auction.Replay, d *verify.AuctionDerivation) *auctionView {
	p := r.Config.Players
	v := &auctionView{Config: r.Config, SeedCommitment: r.SeedCommitment, Seed: r.Seed, Ranking: d.Ranking, Complete: d.Complete}
	for s := range p {
		name := "seat"
		if s < len(r.Seats) && r.Seats[s] != "" {
			name = r.Seats[s]
		}
		v.Seats = append(v.Seats, name)
	}
	if pay := d.Payout; pay != nil {
		v.Pot, v.Rake = pay.Pot.Text('f'), pay.Rake.Text('f')
		for s := range pay.Amounts {
			v.Payouts = append(v.Payouts, auction.SeatPayout{Seat: s, Amount: &pay.Amounts[s]})
		}
	}
	for _, res := range d.Items {
		it := auctionItem{Item: res.Item, Bids: append([]int(nil), res.Bids[:p]...), Winner: -1}
		if res.Sold {
			it.Winner, it.Price, it.Value, it.Profit = res.Winner, res.Price, res.Value, res.Profit
		}
		v.Items = append(v.Items, it)
	}
	for _, e := range r.Events {
		switch e.Type {
		case "action", "bid_placed":
			if e.Message != nil && e.Seat != nil {
				v.Talk = append(v.Talk, talkLine{Item: e.Item, Seat: *e.Seat, Message: *e.Message})
			}
		}
	}
	profits := make([]int, p)
	for s, ps := range d.Players {
		profits[s] = ps.Profit
	}
	v.Bids = bidChart(v.Items, v.Seats, r.Config.ValueMax)
	v.Profit = profitChart(profits, v.Seats)
	return v
}

// bargainOf builds the page of a Negotiation Games replay r of either
// dialect: its header and policy names as the replay gives them, and the
// matches (pools, values, moves, outcomes), the results and the engine's
// aliases as the re-simulation derived them (d), so that a claimed value
// shows only in the differences.
func bargainOf(r *bargainJSON, d *verify.BargainDerivation) *bargainView {
	res := &d.Results
	v := &bargainView{ItemNames: bargain.ItemNames, MaxTurns: r.Config.MaxTurns, SeedCommitment: r.SeedCommitment, Seed: r.Seed,
		Reason: string(res.Reason), Played: res.MatchesPlayed, Max: res.MaxMatches,
		Engine: d.Engine, EngineSeed: r.Config.Seed}
	for s := range bargain.Seats {
		name := "seat"
		if s < len(r.PolicyNames) && r.PolicyNames[s] != "" {
			name = r.PolicyNames[s]
		}
		v.Seats = append(v.Seats, name)
		if v.Engine {
			v.Aliases = append(v.Aliases, d.Names[s])
		}
	}
	for i := range d.Matches {
		dm := &d.Matches[i]
		p := &dm.Plan
		m := bargainMatch{Match: p.Match, Seats: p.Seats, Opener: p.Opener, Pool: p.Pool, Values: [2][3]int{p.Values[0], p.Values[1]}}
		for _, dmv := range dm.Moves {
			mv := &dmv.Move
			mo := bargainMove{Kind: "offer", Turn: mv.Turn, Seat: mv.Seat, Take: mv.Take, Text: dmv.Text}
			switch {
			case mv.Accept:
				mo.Kind, mo.Worth = "accept", mv.Payoff // in seat order
			case mv.Seat == p.Seats[0]:
				mo.Worth = mv.Worth // [mover, other]: seat order
			default:
				mo.Worth = [2]int{mv.Worth[1], mv.Worth[0]}
			}
			m.Offers = append(m.Offers, mo)
		}
		if end := dm.Settled(); end != nil {
			m.Outcome, m.Payoff, m.Turns = string(end.Outcome), end.Payoff, end.TurnsUsed
		}
		v.Matches = append(v.Matches, m)
	}
	for s := range bargain.Seats {
		bs := bargainSeat{Seat: s, Name: v.Seats[s], Points: res.Points[s], Matches: res.Matches[s], Deals: res.Deals[s],
			Score: d.Scores[s], Giveaway: d.Giveaway[s]}
		if v.Engine {
			bs.Alias = v.Aliases[s]
		}
		v.Results = append(v.Results, bs)
	}
	if c, err := scoreChart(d.Scores[:], v.Seats); err == nil {
		v.Scores = c
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
