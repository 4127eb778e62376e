package ledger

import "testing"

// TestDuplicateSeedCommitMessage: Append's refusal of a seed-commit whose
// commitment an earlier one holds says it in the write admission's words
// (verify.Admit: "commitment: seed-commit entry N ... already committed
// to this seed; a seed is committed once: expected the commitment of a
// new seed"), not another phrase for the same refusal (trial 4, finding 9).
func TestDuplicateSeedCommitMessage(t *testing.T) {
	got := (&DuplicateError{Index: 27, Kind: KindSeedCommit}).Error()
	want := "commitment: seed-commit entry 27 already committed to this seed; a seed is committed once: expected the commitment of a new seed"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
