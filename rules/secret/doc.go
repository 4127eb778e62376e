// Package secret implements the secret-action protocol of seed 004
// (docs/rules/004_1fc38c7a40af5155.txt, rule "Secret Information", with
// the amended rule "Phases"): a player posts in the action type's channel the
// SHA-256 of an unambiguous declaration followed by salt, the action matures
// at the start of the next phase, the player must reveal the exact text
// between maturation and revelation date, and the action fails under the
// rule's conditions. Where the rule is ambiguous the package takes the
// readings S1-S5 of docs/design.md; docs/secret-actions.md names each one for a
// game's operators.
//
// The package is pure: it does no I/O and never reads the clock. "Now" is an
// argument, every time is an instant (time.Time), and the IANA zone is used
// only by the Calendar, so daylight-saving changes follow the zone's rules.
//
//   - Calendar gives the weekly phases (Auction Monday 00:00 to Thursday
//     00:00, Bartering Thursday 00:00 to Monday 00:00), the next phase start
//     and calendar-day arithmetic (reading S5); Week names ISO weeks.
//   - Settings and Game hold each action type's channel, phase, maturation
//     rule and revelation offset, with the rule's defaults.
//   - Game.Judge takes the ledger's posts, edits and reveals (each with its
//     ledger index, integration time and optional posted_at) and an instant,
//     and gives each action's State, its Failure (reason and instant) and
//     an Explanation of every decision (rule, reading, times used), plus
//     Flags for a reused salt and a copied commitment.
//   - ParseDeclaration reads what a reveal declares (bids on lots, a Hand),
//     tolerant of case and spacing; anything unclear is an "ambiguous
//     declaration".
//
// Commitments, salts and near-miss hints come from package commit.
package secret
