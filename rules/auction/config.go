package auction

import (
	"errors"
	"fmt"

	"github.com/cockroachdb/apd/v3"
)

// RulesVersion is the Blind Auction rules version this package implements
// (seed 000, title).
const RulesVersion = "auction-0.2"

// Limits of a table (seed 000, "Table", "Match", "On the wire") and the
// bounds this implementation puts on configurable numbers so that every
// total fits an int64 and no config can make a replay check allocate without
// bound.
const (
	MinPlayers      = 3   // seed 000, "Table": 3-8 allowed
	MaxPlayers      = 8   // seed 000, "Table"
	MaxMessageChars = 280 // seed 000, "On the wire": say and bid messages, in characters (runes)

	MaxItems      = 1000          // implementation bound on Config.Items
	MaxValue      = 1_000_000     // implementation bound on Config.ValueMax
	MaxCredits    = 1_000_000_000 // implementation bound on Config.StartingCredits
	MaxTalkRounds = 16            // implementation bound on Config.TalkRounds
)

// Pricing is how the winner's price is set (seed 000, "One item" 3).
type Pricing string

const (
	// FirstPrice: the winner pays its own bid (the default).
	FirstPrice Pricing = "first"
	// SecondPrice (Vickrey): the winner pays the highest bid of any other
	// seat, 0 if every other seat bid 0 (docs/design.md B1).
	SecondPrice Pricing = "second"
)

// Config is one table's settings. Its JSON form is the "config" object of a
// replay (docs/replays.md); decimals are JSON strings such as "0.05".
type Config struct {
	// Players is the number of seats, 3..8 (seed 000, "Table"; default 5).
	Players int `json:"players"`
	// Items is the number of items auctioned, 1..MaxItems (default 10).
	Items int `json:"items"`
	// StartingCredits is every seat's credits at the start, 0..MaxCredits
	// (default 100).
	StartingCredits int `json:"starting_credits"`
	// ValueMin and ValueMax bound the private values, inclusive,
	// 0 <= ValueMin <= ValueMax <= MaxValue (default 5 and 60).
	ValueMin int `json:"value_min"`
	ValueMax int `json:"value_max"`
	// TalkRounds is the number of talk turns each seat gets per item, in
	// seat order, 0..MaxTalkRounds (default 1).
	TalkRounds int `json:"talk_rounds"`
	// Pricing is FirstPrice or SecondPrice.
	Pricing Pricing `json:"pricing"`
	// Stake is what each seat of a paid table puts in the pot, in the
	// table's currency; nil or zero for a table played for fake credits.
	// At most 10^12, and a whole number of payout units.
	Stake *apd.Decimal `json:"stake,omitempty"`
	// Rake is the house's share of a paid table's pot, a fraction in
	// [0, 1) such as 0.05 for 5%; nil means 0.
	Rake *apd.Decimal `json:"rake,omitempty"`
	// PayoutUnit is the smallest amount paid out, > 0 (at least 10^-12);
	// the rake and payouts are rounded down to a multiple of it (B3). nil
	// means 0.01.
	PayoutUnit *apd.Decimal `json:"payout_unit,omitempty"`
}

// DefaultConfig returns the seed's default table: 5 players, 10 items, 100
// starting credits, values 5..60, 1 talk round, first-price, no stake.
func DefaultConfig() Config {
	return Config{Players: 5, Items: 10, StartingCredits: 100, ValueMin: 5, ValueMax: 60, TalkRounds: 1, Pricing: FirstPrice}
}

// ErrConfig is wrapped by every error Validate returns, so callers can tell
// a bad config from other failures with errors.Is.
var ErrConfig = errors.New("invalid auction config")

func configErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
}

var (
	maxStake = apd.New(1, 12)
	minUnit  = apd.New(1, -12)
	oneDec   = apd.New(1, 0)
)

// Validate checks every field against the ranges documented on Config and
// returns an error wrapping ErrConfig that names the first field out of
// range and what was expected.
func (c *Config) Validate() error {
	switch {
	case c.Players < MinPlayers || c.Players > MaxPlayers:
		return configErrorf("players is %d, expected %d..%d (the Blind Auction's rule Table)", c.Players, MinPlayers, MaxPlayers)
	case c.Items < 1 || c.Items > MaxItems:
		return configErrorf("items is %d, expected 1..%d", c.Items, MaxItems)
	case c.StartingCredits < 0 || c.StartingCredits > MaxCredits:
		return configErrorf("starting_credits is %d, expected 0..%d", c.StartingCredits, MaxCredits)
	case c.ValueMin < 0 || c.ValueMin > MaxValue:
		return configErrorf("value_min is %d, expected 0..%d", c.ValueMin, MaxValue)
	case c.ValueMax < c.ValueMin || c.ValueMax > MaxValue:
		return configErrorf("value_max is %d, expected value_min (%d)..%d", c.ValueMax, c.ValueMin, MaxValue)
	case c.TalkRounds < 0 || c.TalkRounds > MaxTalkRounds:
		return configErrorf("talk_rounds is %d, expected 0..%d", c.TalkRounds, MaxTalkRounds)
	case c.Pricing != FirstPrice && c.Pricing != SecondPrice:
		return configErrorf("pricing is %q, expected %q or %q", c.Pricing, FirstPrice, SecondPrice)
	}
	if c.Stake != nil && (c.Stake.Form != apd.Finite || c.Stake.Sign() < 0 || c.Stake.Cmp(maxStake) > 0) {
		return configErrorf("stake is %s, expected a decimal 0..%s", c.Stake, maxStake.Text('f'))
	}
	if c.Rake != nil && (c.Rake.Form != apd.Finite || c.Rake.Sign() < 0 || c.Rake.Cmp(oneDec) >= 0) {
		return configErrorf("rake is %s, expected a fraction in [0, 1) such as 0.05", c.Rake)
	}
	if c.PayoutUnit != nil && (c.PayoutUnit.Form != apd.Finite || c.PayoutUnit.Cmp(minUnit) < 0 || c.PayoutUnit.Cmp(maxStake) > 0) {
		return configErrorf("payout_unit is %s, expected a decimal %s..%s", c.PayoutUnit, minUnit.Text('f'), maxStake.Text('f'))
	}
	if c.Paid() {
		// B3 rounds the rake and payouts down to the unit and gives the
		// remainder to the first-ranked seat: both hold only when the pot,
		// and so the stake, is a whole number of units.
		unit := defaultUnit
		if c.PayoutUnit != nil {
			unit = c.PayoutUnit
		}
		var rem apd.Decimal
		if _, err := decCtx.Rem(&rem, c.Stake, unit); err != nil || !rem.IsZero() {
			return configErrorf("stake %s is not a whole number of payout units (%s): the pot could not be paid out in units (B3)", c.Stake, unit)
		}
	}
	return nil
}

// Paid reports whether the table is played for a stake (Stake > 0).
func (c *Config) Paid() bool { return c.Stake != nil && c.Stake.Sign() > 0 }
