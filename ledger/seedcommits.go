package ledger

// SeedCommitmentOf returns the commitment a seed-commit leaf holds (its
// top-level "commitment" member, 64 lowercase hex characters in a leaf
// the log wrote) and true; "" and false for another kind or a leaf
// without a string member "commitment". It is what a store's
// seed_commits row of the entry holds ([StoredEntry.SeedCommitment]).
func SeedCommitmentOf(kind Kind, leaf []byte) (string, bool) {
	if kind != KindSeedCommit {
		return "", false
	}
	return topLevelString(leaf, "commitment")
}
