// Package rules is the parent of sealed's game rules, each pure and
// deterministic (no I/O, no clock; time and randomness come in as
// arguments): rng (the seeded stream), secret (the secret-action
// lifecycle of seed 004), lots (sealed bids on lots), auction (Blind
// Auction, seed 000, auction-0.2) and bargain (Negotiation Games, seed 002).
package rules
