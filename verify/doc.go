// Package verify joins the other packages to answer an auditor's questions:
// does a replay's revealed seed match its commitment, and do the values,
// pools, events and results the server claimed follow from that seed and the
// rules? It re-derives everything derivable, re-simulates every event
// through rules/auction (Blind Auction, seed 000) or rules/bargain
// (Negotiation Games, seed 002), and reports each difference from the claim
// as (event index, field, claimed, derived). Replay formats are specified in
// docs/replays.md.
package verify
