// Package secret implements the secret-action protocol of seed 004
// (../shared/seeds/004_1fc38c7a40af5155.txt, rule "Secret Information", with
// the amended rule "Phases"): a player posts the SHA-256 hash of a
// declaration and salt in the action type's channel, the action matures at
// the start of the next phase, the player must reveal the exact text between
// maturation and revelation date, and the action fails under the rule's
// conditions. Where the rule is ambiguous the package takes the readings
// S1-S5 of DESIGN.md, documented in docs/secret-actions.md.
//
// The package is pure: it does no I/O and never reads the clock. "Now" is an
// argument, every time is an instant (time.Time), and the IANA zone is used
// only by the Calendar, so daylight-saving changes follow the zone's rules.
//
// Calendar gives the weekly phases (Auction Monday 00:00 to Thursday 00:00,
// Bartering Thursday 00:00 to Monday 00:00, reading S5); Settings and Game
// hold each action type's channel, phase, maturation rule and revelation
// offset.
package secret
