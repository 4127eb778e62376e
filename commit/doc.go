// Package commit implements salted SHA-256 commitments for commit-reveal:
// reveal texts, salts, commitments, strict verification with near-miss
// hints, salt audits, and game-server seed commitments.
package commit
