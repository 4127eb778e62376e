package auction

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/cockroachdb/apd/v3"
	"github.com/sealedhq/sealed/commit"
)

// ReplayFormat is the value of a Blind Auction replay's "format" field
// (docs/replays.md).
const ReplayFormat = "sealed.auction.replay.v1"

// Event types of a replay, the event payload names of seed 000 ("On the
// wire", event payloads). Per item a replay holds, in order: item_up; one
// value_private per seat; TalkRounds*Players talk turns, each an action
// (say or pass) or a timeout; bidding_open; one bid per seat, each a
// bid_placed or a timeout; bids_revealed; item_result; profit_update. After
// the last item: auction_end.
const (
	EventItemUp       = "item_up"
	EventValuePrivate = "value_private"
	EventAction       = "action"
	EventTimeout      = "timeout"
	EventBiddingOpen  = "bidding_open"
	EventBidPlaced    = "bid_placed"
	EventBidsRevealed = "bids_revealed"
	EventItemResult   = "item_result"
	EventProfitUpdate = "profit_update"
	EventAuctionEnd   = "auction_end"
)

// Replay is a whole Blind Auction match as published after the seed is
// revealed (docs/replays.md, format "sealed.auction.replay.v1"): the config,
// the seed commitment posted before the match, the revealed seed, every
// event, and the results the server claims.
// A replay is read strictly (docs/replays.md, "Reading a replay",
// verify.CheckReplay): no key twice, no key the format does not define.
type Replay struct {
	Format         string `json:"format"`        // ReplayFormat
	RulesVersion   string `json:"rules_version"` // RulesVersion
	Config         Config `json:"config"`
	SeedCommitment string `json:"seed_commitment"` // lowercase hex SHA-256 of Seed's 64 characters
	Seed           string `json:"seed"`            // the revealed seed, 64 lowercase hex characters
	// Seats names who sat where, by seat (bot names for built-in bots);
	// informational, not checked.
	Seats []string `json:"seats,omitempty"`
	// Contributions and Beacon are the players' client seeds and the drand
	// round the match seed took (commit.MatchSeed, docs/rng.md "The match
	// seed"); absent when the draws come from Seed itself.
	Contributions []commit.ReplayContribution `json:"contributions,omitempty"`
	Beacon        *commit.ReplayBeacon        `json:"beacon,omitempty"`
	Events        []Event                     `json:"events"`
	Results       Results                     `json:"results"`
}

// Event is one replay event. Type says which fields it carries (the others
// are absent):
//
//	item_up        item
//	value_private  item, seat, value           (a value the seed gives)
//	action         item, seat, action ("say" with message, or "pass")
//	timeout        item, seat, phase ("talk": a pass; "bid": a bid of 0)
//	bidding_open   item
//	bid_placed     item, seat, amount, optional message
//	bids_revealed  item, bids (every seat, in seat order; a timeout as 0)
//	item_result    item, winner, price, value, profit, tie_break; or unsold
//	profit_update  item, players (every seat's credits, profit, items won)
//	auction_end    players (final)
//
// Optional integers are pointers so that 0 and absent differ.
type Event struct {
	Type     string        `json:"type"`
	Item     int           `json:"item,omitempty"`
	Seat     *int          `json:"seat,omitempty"`
	Phase    string        `json:"phase,omitempty"`
	Action   string        `json:"action,omitempty"`
	Message  *string       `json:"message,omitempty"`
	Amount   *int          `json:"amount,omitempty"`
	Bids     []SeatBid     `json:"bids,omitempty"`
	Winner   *int          `json:"winner,omitempty"`
	Price    *int          `json:"price,omitempty"`
	Value    *int          `json:"value,omitempty"`
	Profit   *int          `json:"profit,omitempty"`
	TieBreak bool          `json:"tie_break,omitempty"`
	Unsold   bool          `json:"unsold,omitempty"`
	Players  []PlayerState `json:"players,omitempty"`
}

// SeatBid is one seat's revealed bid in a bids_revealed event.
type SeatBid struct {
	Seat   int `json:"seat"`
	Amount int `json:"amount"`
}

// Results are a replay's claimed final results: the ranking (Rank) and, for
// a paid table, the pot, the rake and each seat's payout (Payouts), as
// decimal strings.
type Results struct {
	Ranking []Standing   `json:"ranking"`
	Pot     *apd.Decimal `json:"pot,omitempty"`
	Rake    *apd.Decimal `json:"rake,omitempty"`
	Payouts []SeatPayout `json:"payouts,omitempty"`
}

// SeatPayout is one seat's payout from a paid table's pot.
type SeatPayout struct {
	Seat   int          `json:"seat"`
	Amount *apd.Decimal `json:"amount"`
}

// Encode returns the replay as JSON text in the layout of docs/replays.md:
// one top-level field per line, one event per line, the results indented,
// a final newline. HTML characters in messages are not escaped. Any JSON
// reader reads it; the layout only keeps files easy to read and diff.
func (r *Replay) Encode() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\n")
	head := []struct {
		key string
		v   any
	}{{"format", r.Format}, {"rules_version", r.RulesVersion}, {"config", &r.Config},
		{"seed_commitment", r.SeedCommitment}, {"seed", r.Seed}}
	type field = struct {
		key string
		v   any
	}
	if len(r.Seats) > 0 {
		head = append(head, field{"seats", r.Seats})
	}
	if len(r.Contributions) > 0 {
		head = append(head, field{"contributions", r.Contributions})
	}
	if r.Beacon != nil {
		head = append(head, field{"beacon", r.Beacon})
	}
	for _, f := range head {
		v, err := marshalCompact(f.v)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "  %q: %s,\n", f.key, v)
	}
	b.WriteString("  \"events\": [")
	for i := range r.Events {
		v, err := marshalCompact(&r.Events[i])
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		b.Write(v)
	}
	b.WriteString("\n  ],\n  \"results\": {\n    \"ranking\": [")
	for i := range r.Results.Ranking {
		v, err := marshalCompact(&r.Results.Ranking[i])
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n      ")
		b.Write(v)
	}
	b.WriteString("\n    ]")
	tail := []struct {
		key string
		v   any
		ok  bool
	}{{"pot", r.Results.Pot, r.Results.Pot != nil}, {"rake", r.Results.Rake, r.Results.Rake != nil},
		{"payouts", r.Results.Payouts, len(r.Results.Payouts) > 0}}
	for _, f := range tail {
		if !f.ok {
			continue
		}
		v, err := marshalCompact(f.v)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, ",\n    %q: %s", f.key, v)
	}
	b.WriteString("\n  }\n}\n")
	return b.Bytes(), nil
}

// marshalCompact is json.Marshal without HTML escaping.
func marshalCompact(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
