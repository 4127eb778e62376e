// Package beacon verifies rounds of a drand public randomness beacon
// offline, and fetches them from a drand HTTP relay.
//
// A drand network (a "chain", named by its chain hash) publishes one round
// every period: round R is published at genesis + (R-1)*period, and
// carries a threshold BLS signature no single party of the League of
// Entropy can make or predict. sealed uses a round as public randomness
// nobody knew when a game server committed to its seed (docs/rng.md,
// "The match seed").
//
// # Scheme
//
// Only unchained networks on BLS12-381 with G1 signatures and G2 public
// keys, drand scheme bls-unchained-g1-rfc9380 (quicknet), are supported:
// the message signed for round R is SHA-256 of R as an 8-byte big-endian
// integer; the signature is a compressed G1 point (48 bytes), checked with
// hash-to-curve domain BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_ (RFC
// 9380) by github.com/cloudflare/circl sign/bls (KeyG2SigG1). The round's
// randomness is SHA-256 of the signature.
//
// # Networks
//
// The public key, genesis time and period of each known network are built
// in ([Quicknet]), so a round is checked with nothing but its number and
// signature: [Chain.CheckRound]. [Client.Get] fetches
// /<chain hash>/public/<round> from a relay and checks what it got.
package beacon
