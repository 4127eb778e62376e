package verify

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/rules/auction"
)

// CheckAuctionReplay re-simulates a Blind Auction replay (format
// "sealed.auction.replay.v1", docs/replays.md; rules auction-0.2, seed 000)
// given as JSON. See CheckAuction for what is checked. It returns an error,
// never a panic, when data is not a replay it can read: not JSON (RFC 8259,
// UTF-8 strings), a leading UTF-8 byte order mark, a key given twice in one
// object, a key the format does not define (keys match exactly, case
// included), a field of the wrong JSON type, or what CheckAuction rejects
// (docs/replays.md, "Reading a replay"). The error names the key or field
// and where it is ("event 9", "config").
func CheckAuctionReplay(data []byte) (*Report, error) { return checkAuctionReplay(data, nil) }

// checkAuctionReplay is CheckAuctionReplay, recording what it derived in d
// unless d is nil.
func checkAuctionReplay(data []byte, d *AuctionDerivation) (*Report, error) {
	var r auction.Replay
	s := getScanner(data)
	defer s.release()
	if err := s.decodeAuction(&r); err != nil {
		return nil, err
	}
	return checkAuction(&r, d)
}

// CheckAuction re-simulates a decoded Blind Auction replay. It checks the
// revealed seed against the seed commitment (commit.CheckSeed: SHA-256 of
// the seed's 64 lowercase hex characters, docs/design.md "Seed commitment"; a
// commitment is read by commit.ParseCommitment, so any case and a
// "sha256:" prefix are accepted; a well-formed commitment that does not
// match is a difference, with the usual mistakes named by
// commit.SeedHints), re-derives the
// values table from the seed, applies every talk, bid and timeout event
// through rules/auction in turn order, and compares every claimed field:
// each value_private value, the legality of each action, bids_revealed,
// item_result (winner, price, value, profit, tie_break, unsold),
// profit_update and auction_end (credits, profit, items won), and the
// results (ranking; pot, rake and payouts for a paid table). Each
// difference is reported as (event index, field, claimed, derived); header
// and results differences have event -1.
//
// An illegal action (a bid outside 0..credits, a message over 280
// characters, a say without a message, an unknown talk action, a bid
// without an amount) is reported at its event and then played as a timeout,
// as a server would have refused it. If an event's type is not the one the
// rules expect next (say a bid_placed during talk), the difference is
// reported and re-simulation stops there: Report.Events says how far it got.
//
// It returns an error when the replay cannot be checked at all: a format
// other than auction.ReplayFormat, a rules_version other than "auction-0.2",
// an invalid config (wrapping auction.ErrConfig), a seed that is not 64
// hex digits (commit.ParseSeed), or a seed_commitment that is missing or
// not a SHA-256 hash (commit.ParseCommitment: another algorithm's prefix
// or length, not hex).
func CheckAuction(r *auction.Replay) (*Report, error) { return checkAuction(r, nil) }

// checkAuction is CheckAuction, recording what it derived in d unless d
// is nil.
func checkAuction(r *auction.Replay, d *AuctionDerivation) (*Report, error) {
	if r.Format != auction.ReplayFormat {
		return nil, fmt.Errorf("replay format is %q, expected %q", r.Format, auction.ReplayFormat)
	}
	if r.RulesVersion != auction.RulesVersion {
		return nil, fmt.Errorf("rules_version is %q, expected %q", r.RulesVersion, auction.RulesVersion)
	}
	if err := r.Config.Validate(); err != nil {
		return nil, fmt.Errorf("replay config: %w", err)
	}
	seed, err := commit.ParseSeed(r.Seed)
	if err != nil {
		return nil, fmt.Errorf("replay seed: %v", err)
	}
	claimed, err := parseCommitment(r.SeedCommitment)
	if err != nil {
		return nil, fmt.Errorf("replay seed_commitment: %v", err)
	}
	rep := &Report{Format: FormatAuction, Differences: []Difference{}}
	drawSeed, err := matchSeed(seed, r.Contributions, r.Beacon, r.Config.Players, rep)
	if err != nil {
		return nil, fmt.Errorf("replay %v", err)
	}
	c := checkers.Get().(*auctionChecker)
	defer c.release()
	if err := c.m.Reset(drawSeed[:], r.Config); err != nil {
		return nil, err
	}
	c.r, c.rep, c.i = r, rep, 0
	c.rep.SeedCommitmentOK = commit.CheckSeed(seed, claimed)
	if !c.rep.SeedCommitmentOK {
		derived := seed.Commitment().String()
		for _, h := range commit.SeedHints(seed, claimed) {
			derived += " (the claim is the SHA-256 of the " + h.Name + ")"
		}
		c.diff(-1, "seed_commitment", truncate(r.SeedCommitment, 80), derived)
	}
	complete := c.run()
	if complete {
		c.checkResults()
	}
	if d != nil {
		d.record(c, complete)
	}
	c.rep.Events = c.i
	return c.rep, nil
}

// checkers holds auctionCheckers between calls of CheckAuction, so that
// re-simulating many replays reuses each Match's storage (values table,
// results) and ranking buffer instead of allocating them per replay.
var checkers = sync.Pool{New: func() any { return new(auctionChecker) }}

// release drops the checker's references to the caller's replay and
// report and returns it to checkers.
func (c *auctionChecker) release() {
	c.r, c.rep = nil, nil
	checkers.Put(c)
}

// parseCommitment is commit.ParseCommitment with a fast path for the usual
// form, exactly 64 hex digits, which ParseCommitment decodes the same way
// (after its checks for whitespace, an algorithm prefix and other lengths,
// none of which such a string has). Anything else goes to ParseCommitment,
// for its errors.
func parseCommitment(s string) (commit.Commitment, error) {
	var c commit.Commitment
	if len(s) == hex.EncodedLen(len(c)) {
		if _, err := hex.Decode(c[:], []byte(s)); err == nil {
			return c, nil
		}
	}
	return commit.ParseCommitment(s)
}

// truncate cuts s to at most n bytes, never inside a UTF-8 sequence.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

func quoteOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

type auctionChecker struct {
	r   *auction.Replay
	m   auction.Match // started afresh by Reset for each replay
	rep *Report
	i   int // index of the next event
	// ranking is the storage of the derived final ranking.
	ranking [auction.MaxPlayers]auction.Standing
	// bidEvent[s] is the index of seat s's bid_placed or timeout event for
	// the current item, named when bids_revealed differs from it.
	bidEvent [auction.MaxPlayers]int
}

// diff records a difference. claimed is copied: it may be (part of) a
// string of the replay, which CheckAuctionReplay reads pointing into its
// input (decodeAuction), and the report outlives the input.
func (c *auctionChecker) diff(ev int, field, claimed, derived string) {
	c.rep.Differences = append(c.rep.Differences, Difference{Event: ev, Field: field, Claimed: strings.Clone(claimed), Derived: derived})
}

// peek returns the next event, or nil when the events ran out. Callers
// check its type against the constant they expect (in place, so the
// compiler compares without a call), then advance c.i or report wrongType.
func (c *auctionChecker) peek() *auction.Event {
	if c.i < len(c.r.Events) {
		return &c.r.Events[c.i]
	}
	return nil
}

// wrongType reports that the next event is not of the type want (the
// events ran out, or the type is another) and returns nil: re-simulation
// cannot go on. Callers compare the type with a constant in place, which
// the compiler does without a call; wrongType is kept out of line.
//
//go:noinline
func (c *auctionChecker) wrongType(want string) *auction.Event {
	claimed := "(end of events)"
	if c.i < len(c.r.Events) {
		claimed = quoteOrNone(c.r.Events[c.i].Type)
	}
	c.diff(c.i, "type", claimed, want)
	return nil
}

func (c *auctionChecker) cmpInt(field string, claimed, derived int) {
	if claimed != derived {
		c.intDiff(field, claimed, derived)
	}
}

// intDiff reports a claimed integer that differs from the derived one. It
// is kept out of line so that cmpInt, and the common case of cmpOpt, inline.
//
//go:noinline
func (c *auctionChecker) intDiff(field string, claimed, derived int) {
	c.diff(c.i-1, field, strconv.Itoa(claimed), strconv.Itoa(derived))
}

// cmpOpt compares an optional claimed integer with a derived one; ok says
// whether the rules give a value at all.
func (c *auctionChecker) cmpOpt(field string, claimed *int, derived int, ok bool) {
	if ok && claimed != nil && *claimed == derived || !ok && claimed == nil {
		return
	}
	c.optDiff(field, claimed, derived, ok)
}

// cmpReq is cmpOpt for a field the rules always give (ok true), small
// enough to inline.
func (c *auctionChecker) cmpReq(field string, claimed *int, derived int) {
	if claimed == nil || *claimed != derived {
		c.optDiff(field, claimed, derived, true)
	}
}

// optDiff reports the difference cmpOpt found.
//
//go:noinline
func (c *auctionChecker) optDiff(field string, claimed *int, derived int, ok bool) {
	switch {
	case claimed == nil:
		c.diff(c.i-1, field, "none", strconv.Itoa(derived))
	case !ok:
		c.diff(c.i-1, field, strconv.Itoa(*claimed), "none")
	default:
		c.diff(c.i-1, field, strconv.Itoa(*claimed), strconv.Itoa(derived))
	}
}

func (c *auctionChecker) cmpBool(field string, claimed, derived bool) {
	if claimed != derived {
		c.diff(c.i-1, field, strconv.FormatBool(claimed), strconv.FormatBool(derived))
	}
}

// run re-simulates the events; it reports whether it reached the end.
// Every turn applies exactly one action (a refused one is played as a
// timeout), so an item has TalkRounds*Players talk turns and then Players
// bid turns, in seat order.
func (c *auctionChecker) run() bool {
	cfg := c.m.Config()
	for item := 1; item <= cfg.Items; item++ {
		e := c.peek()
		if e == nil || e.Type != auction.EventItemUp { // a constant compared in place, without a call
			c.wrongType(auction.EventItemUp)
			return false
		}
		c.i++
		c.cmpInt("item", e.Item, item)
		for s := 0; s < cfg.Players; s++ {
			if e = c.peek(); e == nil || e.Type != auction.EventValuePrivate {
				c.wrongType(auction.EventValuePrivate)
				return false
			}
			c.i++
			c.cmpInt("item", e.Item, item)
			c.cmpReq("seat", e.Seat, s)
			c.cmpReq("value", e.Value, c.m.Value(item, s))
		}
		for range cfg.TalkRounds {
			for s := 0; s < cfg.Players; s++ {
				if !c.turn(item, s, false) {
					return false
				}
			}
		}
		if e = c.peek(); e == nil || e.Type != auction.EventBiddingOpen {
			c.wrongType(auction.EventBiddingOpen)
			return false
		}
		c.i++
		c.cmpInt("item", e.Item, item)
		for s := 0; s < cfg.Players; s++ {
			if !c.turn(item, s, true) {
				return false
			}
		}
		res := &c.m.Results()[item-1]
		if e = c.peek(); e == nil || e.Type != auction.EventBidsRevealed {
			c.wrongType(auction.EventBidsRevealed)
			return false
		}
		c.i++
		c.cmpInt("item", e.Item, item)
		if len(e.Bids) != cfg.Players {
			c.diff(c.i-1, "bids", fmt.Sprintf("%d bids", len(e.Bids)), fmt.Sprintf("%d bids", cfg.Players))
		}
		for s := 0; s < len(e.Bids) && s < cfg.Players; s++ {
			if e.Bids[s].Seat != s {
				c.diff(c.i-1, fmt.Sprintf("bids[%d].seat", s), strconv.Itoa(e.Bids[s].Seat), strconv.Itoa(s))
			}
			if e.Bids[s].Amount != res.Bids[s] {
				c.diff(c.i-1, fmt.Sprintf("bids[%d].amount", s), strconv.Itoa(e.Bids[s].Amount),
					fmt.Sprintf("%d (from event %d)", res.Bids[s], c.bidEvent[s]))
			}
		}
		if e = c.peek(); e == nil || e.Type != auction.EventItemResult {
			c.wrongType(auction.EventItemResult)
			return false
		}
		c.i++
		c.cmpInt("item", e.Item, item)
		c.cmpBool("unsold", e.Unsold, !res.Sold)
		c.cmpOpt("winner", e.Winner, res.Winner, res.Sold)
		c.cmpOpt("price", e.Price, res.Price, res.Sold)
		c.cmpOpt("value", e.Value, res.Value, res.Sold)
		c.cmpOpt("profit", e.Profit, res.Profit, res.Sold)
		c.cmpBool("tie_break", e.TieBreak, res.TieBreak)
		if e = c.peek(); e == nil || e.Type != auction.EventProfitUpdate {
			c.wrongType(auction.EventProfitUpdate)
			return false
		}
		c.i++
		c.cmpInt("item", e.Item, item)
		c.cmpPlayers(e.Players)
	}
	e := c.peek()
	if e == nil || e.Type != auction.EventAuctionEnd {
		c.wrongType(auction.EventAuctionEnd)
		return false
	}
	c.i++
	c.cmpPlayers(e.Players)
	if c.i < len(c.r.Events) {
		c.diff(c.i, "type", quoteOrNone(c.r.Events[c.i].Type), "(end of events)")
	}
	return true
}

// turn re-simulates seat's talk turn (bid false: an action event) or bid
// turn (bid true: a bid_placed event), either of which may be a timeout
// instead. Event types are compared with constants in place.
func (c *auctionChecker) turn(item, seat int, bid bool) bool {
	e := c.peek()
	if e != nil {
		switch {
		case e.Type == auction.EventTimeout:
		case bid && e.Type == auction.EventBidPlaced:
		case !bid && e.Type == auction.EventAction:
		default:
			e = nil
		}
	}
	if e == nil {
		want := auction.EventAction + " or " + auction.EventTimeout
		if bid {
			want = auction.EventBidPlaced + " or " + auction.EventTimeout
		}
		c.wrongType(want)
		return false
	}
	c.i++
	c.cmpInt("item", e.Item, item)
	c.cmpReq("seat", e.Seat, seat)
	a := auction.Action{Kind: auction.Timeout, Seat: seat}
	switch {
	case e.Type == auction.EventTimeout:
		switch {
		case bid && e.Phase != string(auction.PhaseBid):
			c.diff(c.i-1, "phase", quoteOrNone(e.Phase), string(auction.PhaseBid))
		case !bid && e.Phase != string(auction.PhaseTalk):
			c.diff(c.i-1, "phase", quoteOrNone(e.Phase), string(auction.PhaseTalk))
		}
	case bid: // bid_placed
		if e.Amount == nil {
			c.missingAmount(seat)
			break
		}
		a.Kind, a.Amount = auction.Bid, *e.Amount
		if e.Message != nil {
			a.Message = *e.Message
		}
	default: // action
		switch e.Action {
		case "say":
			a.Kind = auction.Say
			if e.Message != nil {
				a.Message = *e.Message
			}
		case "pass":
			a.Kind = auction.Pass
		default:
			c.diff(c.i-1, "action", quoteOrNone(e.Action), "say or pass (played as a timeout)")
		}
	}
	if bid {
		c.bidEvent[seat] = c.i - 1
	}
	if _, err := c.m.Apply(a); err != nil {
		c.refused(a, err)
	}
	return true
}

func (c *auctionChecker) missingAmount(seat int) {
	c.diff(c.i-1, "amount", "none", "a bid 0.."+strconv.Itoa(c.m.Player(seat).Credits)+" (played as a timeout)")
}

// refused reports an action the rules refused and plays a timeout instead,
// as a server would have.
func (c *auctionChecker) refused(a auction.Action, err error) {
	var ie *auction.IllegalActionError
	if !errors.As(err, &ie) {
		panic("verify: auction.Match.Apply returned " + err.Error()) // unreachable: Apply returns only *IllegalActionError
	}
	field, claimed := "message", strconv.Itoa(utf8.RuneCountInString(a.Message))+" characters"
	switch ie.Rule {
	case auction.RuleBidRange:
		field, claimed = "amount", strconv.Itoa(a.Amount)
	case auction.RuleSayMessage:
		claimed = "none"
	}
	c.diff(c.i-1, field, claimed, "illegal: "+ie.Detail+" (rule "+string(ie.Rule)+"; played as a timeout)")
	if _, err := c.m.Apply(auction.Action{Kind: auction.Timeout, Seat: a.Seat}); err != nil {
		panic("verify: a timeout was refused: " + err.Error()) // unreachable: a timeout by the seat whose turn it is is always legal
	}
}

func (c *auctionChecker) cmpPlayers(claimed []auction.PlayerState) {
	p := c.m.Config().Players
	if len(claimed) != p {
		c.diff(c.i-1, "players", fmt.Sprintf("%d entries", len(claimed)), fmt.Sprintf("%d entries", p))
	}
	for s := 0; s < len(claimed) && s < p; s++ {
		got, want := claimed[s], c.m.Player(s)
		if got == want {
			continue
		}
		for _, f := range [...]struct {
			name    string
			got, wt int
		}{{"seat", got.Seat, want.Seat}, {"credits", got.Credits, want.Credits}, {"profit", got.Profit, want.Profit}, {"items_won", got.ItemsWon, want.ItemsWon}} {
			if f.got != f.wt {
				c.diff(c.i-1, fmt.Sprintf("players[%d].%s", s, f.name), strconv.Itoa(f.got), strconv.Itoa(f.wt))
			}
		}
	}
}

// checkResults compares the claimed results with the final ranking and,
// for a paid table, the payouts.
func (c *auctionChecker) checkResults() {
	res := &c.r.Results
	ranking := c.m.AppendRanking(c.ranking[:0])
	if len(res.Ranking) != len(ranking) {
		c.diff(-1, "results.ranking", fmt.Sprintf("%d entries", len(res.Ranking)), fmt.Sprintf("%d entries", len(ranking)))
	}
	for i := 0; i < len(res.Ranking) && i < len(ranking); i++ {
		got, want := res.Ranking[i], ranking[i]
		for _, f := range [...]struct {
			name    string
			got, wt int
		}{{"seat", got.Seat, want.Seat}, {"rank", got.Rank, want.Rank}, {"score", got.Score, want.Score}, {"credits", got.Credits, want.Credits}} {
			if f.got != f.wt {
				c.diff(-1, fmt.Sprintf("results.ranking[%d].%s", i, f.name), strconv.Itoa(f.got), strconv.Itoa(f.wt))
			}
		}
	}
	pay, err := auction.Payouts(c.m.Config(), ranking)
	if err != nil { // cannot happen for a validated config and a full ranking
		c.diff(-1, "results.payouts", "present", "none: "+err.Error())
		return
	}
	if pay == nil {
		c.cmpDec("results.pot", res.Pot, nil)
		c.cmpDec("results.rake", res.Rake, nil)
		if len(res.Payouts) > 0 {
			c.diff(-1, "results.payouts", fmt.Sprintf("%d entries", len(res.Payouts)), "none (not a paid table)")
		}
		return
	}
	c.cmpDec("results.pot", res.Pot, &pay.Pot)
	c.cmpDec("results.rake", res.Rake, &pay.Rake)
	if len(res.Payouts) != len(pay.Amounts) {
		c.diff(-1, "results.payouts", fmt.Sprintf("%d entries", len(res.Payouts)), fmt.Sprintf("%d entries", len(pay.Amounts)))
	}
	for s := 0; s < len(res.Payouts) && s < len(pay.Amounts); s++ {
		if res.Payouts[s].Seat != s {
			c.diff(-1, fmt.Sprintf("results.payouts[%d].seat", s), strconv.Itoa(res.Payouts[s].Seat), strconv.Itoa(s))
		}
		c.cmpDec(fmt.Sprintf("results.payouts[%d].amount", s), res.Payouts[s].Amount, &pay.Amounts[s])
	}
}

// cmpDec compares a claimed decimal with a derived one by value (so "1.5"
// equals "1.50"); nil means absent.
func (c *auctionChecker) cmpDec(field string, claimed, derived *apd.Decimal) {
	if claimed == nil && derived == nil {
		return
	}
	if claimed != nil && derived != nil && claimed.Form == apd.Finite && claimed.Cmp(derived) == 0 {
		return
	}
	cs, ds := "none", "none"
	if claimed != nil {
		cs = truncate(claimed.String(), 80)
	}
	if derived != nil {
		ds = derived.Text('f')
	}
	c.diff(-1, field, cs, ds)
}
