// Package commit implements salted SHA-256 commitments for commit-reveal, as
// the "Secret Information" rule of docs/rules/004_1fc38c7a40af5155.txt requires
// (a SHA-256 hash, FIPS 180-4, of an unambiguous declaration followed by at
// least one byte of salt) and as docs/commitments.md specifies: the reveal
// text "<declaration>\nsalt: <salt>", 128-bit base32 salts, the parsing of a
// posted hash, strict byte-exact verification with named near-miss hints,
// salt audits (a passive entropy estimate and an active brute-force search),
// and game-server seed commitments (SHA-256 over the seed's 64 lowercase hex
// characters).
//
// The package does no I/O and never reads the clock; randomness comes from
// crypto/rand only (NewSalt, NewSeed).
package commit
