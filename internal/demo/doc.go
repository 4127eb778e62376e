// Package demo builds sealed's demo ledger: a fresh ledger (ledger.Init,
// RFC 6962 tree with C2SP signed checkpoints) holding a Blind Auction
// (seed 000, auction-0.2) and a Negotiation Games episode (seed 002) played
// by the built-in bots, each with its seed commitment, seed reveal and
// result entry (the replay bytes in the ledger's replay table), and a week
// of lot-auction secret actions (seed 004, "Secret Information" and
// "Auctions": bids, a Hand, a second attempt, an edit before maturation, a
// near-miss reveal and a late reveal) recorded at real, ordered times
// through the ledger's injected clock. Build then verifies everything with
// package verify (replays re-simulated, seeds checked against their
// commitments, actions judged, lots concluded) and audits the ledger
// (ledger.Audit).
//
// `sealed demo` prints the Summary and, with --serve, serves the site
// (package web) on the ledger.
package demo
