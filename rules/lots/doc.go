// Package lots implements the conclusion of a week's sealed bids on lots and
// Hands in seed 004 (docs/rules/004_1fc38c7a40af5155.txt, rule
// "Auctions", subrules "Bidding", "Submitting a Hand" and "Prizes"), with
// the readings S6 (bid failures), S7 (priority) and S8 (first- or
// second-price) of docs/design.md, documented in docs/secret-actions.md.
//
// Conclude takes the state at a week's revelation date (players, points,
// cards in possession, the week's successful bid and Hand actions as
// rules/secret judged them) and gives, in the rule's order, the Hands'
// placements and prizes (their cards destroyed), then each bid's fate and
// each lot's transfer and price, every decision explained. Hands are ranked
// by a pluggable Ranker; Poker, the standard five-card ranking, is the
// default. Points are whole numbers (int64).
//
// The package is pure: no I/O, no clock.
package lots
