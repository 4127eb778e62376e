package ledger_test

import (
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// TestKindArticle: each kind with the article English gives it.
func TestKindArticle(t *testing.T) {
	for k, want := range map[ledger.Kind]string{
		ledger.KindCommit: "a commit", ledger.KindReveal: "a reveal", ledger.KindEdit: "an edit",
		ledger.KindSeedCommit: "a seed-commit", ledger.KindSeedReveal: "a seed-reveal",
		ledger.KindResult: "a result", ledger.KindContribution: "a contribution",
	} {
		if got := k.Article(); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
}
