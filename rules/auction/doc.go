// Package auction implements Blind Auction, rules version auction-0.2
// (docs/rules/000_4176825fe06aef2b.txt; the readings B1-B3 of
// docs/design.md): a sealed-bid auction of items, one at a time, among 3
// to 8 seats whose private values are drawn from a committed server seed.
//
// The package is pure and deterministic. Values derives the values table
// from a seed (stream "auction-0.2/values", docs/rng.md); Match is the state
// machine that applies talk, bid and timeout actions in seat order, resolves
// each item (highest positive bid wins, ties settled by the
// "auction-0.2/tiebreak" stream, first-price or second-price (Vickrey)
// pricing) and keeps credits and profits; Rank gives the final ranking and
// Payouts the split of a paid table's pot in exact decimals
// (github.com/cockroachdb/apd/v3). Replay is the JSON replay format
// "sealed.auction.replay.v1" (docs/replays.md), and Play plays a whole match
// with built-in bots (truthful, bid-shading, random, idle) and returns its
// replay. verify.CheckAuctionReplay re-simulates such a replay.
//
// The package does no I/O and never reads the clock.
package auction
