package ledger

// SeedCommitOf returns the seed_commits row of a seed-commit entry at
// index: the string members commitment (64 lowercase hex characters in a
// leaf the log wrote), game and match_id at the top level of its leaf,
// and true; false for another kind, or a leaf without all three as
// strings. It is what [StoredEntry.SeedCommit] holds for a store.
func SeedCommitOf(kind Kind, leaf []byte, index int64) (StoredSeedCommit, bool) {
	if kind != KindSeedCommit {
		return StoredSeedCommit{}, false
	}
	c, ok1 := topLevelString(leaf, "commitment")
	g, ok2 := topLevelString(leaf, "game")
	m, ok3 := topLevelString(leaf, "match_id")
	if !ok1 || !ok2 || !ok3 {
		return StoredSeedCommit{}, false
	}
	return StoredSeedCommit{Commitment: c, Index: index, Game: g, MatchID: m}, true
}
