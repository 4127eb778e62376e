package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/verify"
)

// TestAppendAdmitSeedCommitOnce: through the write API a seed is committed
// once: a second seed-commit with seed A's commitment (tieCommitmentA,
// `printf %s 0001...1e1f | sha256sum`), for another match, is answered
// 409 with the earlier entry's index, as a duplicate is, and an error
// naming it, without the "bad entry:" of a 400; a writer that loses the
// race to the log (Append's *ledger.DuplicateError) is answered in the
// same words (trial 4, finding 9). Nothing refused is appended.
func TestAppendAdmitSeedCommitOnce(t *testing.T) {
	f := newTieFixture(t)
	f.clk.set(at(t, "2026-11-16T08:00:00Z"))
	s := f.server(t, func(o *Options) { o.WriteRate, o.WriteBurst = 1e6, 1e6 })
	seedCommit := func(match, version, config, commitment string) string {
		return fmt.Sprintf(`{"kind":"seed-commit","game":"auction","match_id":%q,"rules_version":%q,"config":%s,"commitment":%q}`, match, version, config, commitment)
	}
	code, a := postEntry(t, s, seedCommit("m1", "auction-0.2", tieConfig, tieCommitmentA))
	if code != 201 || a.Index == nil || *a.Index != 0 {
		t.Fatalf("the first seed-commit: %d %+v", code, a)
	}
	for _, match := range []string{"m2", "m3"} {
		code, a = postEntry(t, s, seedCommit(match, "auction-0.2", tieConfig, strings.ToUpper(tieCommitmentA)))
		if code != 409 || a.Index == nil || *a.Index != 0 ||
			!strings.HasPrefix(a.Error, "commitment: seed-commit entry 0 (auction match m1) already committed to this seed") {
			t.Errorf("%s with seed A's commitment: %d %+v; want 409 naming entry 0", match, code, a)
		}
	}
	wantSize(t, f.w, 1)
	// The race: Admit passed m4 before entry 0 was in, and Append refused
	// it under the write lock.
	b, err := ledger.ParseBody([]byte(seedCommit("m4", "auction-0.2", tieConfig, strings.ToUpper(tieCommitmentA))))
	if err != nil {
		t.Fatal(err)
	}
	lost := appendError(verify.SeedReused(f.w, b, &ledger.DuplicateError{Index: 0, Kind: ledger.KindSeedCommit}))
	if he, ok := lost.(*httpError); !ok || he.code != 409 || he.index == nil || *he.index != 0 || he.msg != a.Error {
		t.Errorf("the race's loser: %#v; want 409 with entry 0 and %q", lost, a.Error)
	}
}

// TestAppendAdmitSeedCommitConfig: through the write API a seed-commit
// whose config or rules version no replay of its game could carry (the
// newcomer trial's) is answered 400 naming the field, and not appended.
func TestAppendAdmitSeedCommitConfig(t *testing.T) {
	f := newTieFixture(t)
	f.clk.set(at(t, "2026-11-16T08:00:00Z"))
	s := f.server(t, func(o *Options) { o.WriteRate, o.WriteBurst = 1e6, 1e6 })
	for _, c := range []struct{ version, config, want string }{
		{"auction-0.2", `{"players":99}`, "bad entry: config: items, starting_credits"},
		{"auction-0.2", `{"colour":"red"}`, `bad entry: config: unknown key "colour"`},
		{"auction-9.9", tieConfig, `bad entry: rules_version: "auction-9.9"`},
	} {
		body := fmt.Sprintf(`{"kind":"seed-commit","game":"auction","match_id":"m","rules_version":%q,"config":%s,"commitment":%q}`, c.version, c.config, tieCommitmentA)
		code, a := postEntry(t, s, body)
		if code != 400 || !strings.HasPrefix(a.Error, c.want) {
			t.Errorf("%s %s: %d %+v; want 400 saying %q", c.version, c.config, code, a, c.want)
		}
	}
	wantSize(t, f.w, 0)
	code, a := postEntry(t, s, fmt.Sprintf(`{"kind":"seed-commit","game":"auction","match_id":"m","rules_version":"auction-0.2","config":%s,"commitment":%q}`, tieConfig, tieCommitmentA))
	if code != 201 {
		t.Errorf("the table of the tie fixture: %d %+v; want 201", code, a)
	}
}
