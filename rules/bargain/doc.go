// Package bargain implements the Negotiation Games of seed 002
// (docs/rules/002_3f997448278f2b5a.txt, "Negotiation Games rules"):
// three-seat episodes of one-on-one bargaining matches over books, hats and
// balls, with each match's pool and both seats' private valuations drawn
// from a committed seed by the HMAC-SHA256 stream of rules/rng
// (docs/design.md, "Bargaining pools"), and the replay format
// negotiation.replay.v1 of the public Negotiation Games engine
// (github.com/Metta-AI/cogame-negotiation-games, src/negotiation/sim.nim).
//
// The package is pure and deterministic: it does no I/O and never reads the
// clock. DrawMatch and DrawSchedule derive pools and valuations from a seed;
// ValidatePool checks any pool and valuation pair, whatever its source;
// Match and Episode are the state machines that apply offers, accepts and a
// play-clock deadline and keep the per-seat tallies; Results gives points,
// matches, deals, and score and giveaway as exact decimals (apd) printed
// with ScorePlaces places. Greedy and Fair are deterministic bots and
// PlayEpisode plays a whole episode with them and returns its Replay.
//
// Readings this package takes where the seed is silent are listed in
// docs/replays.md ("Negotiation Games replays") and docs/bargain.md.
package bargain
