package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestReplayTieRefColumnNulled (trial 14): the ref column of a
// seed-reveal is a copy of its leaf's seed_commit member, which the
// signed tree does not cover. Set to NULL in the database, the row no
// longer answers EntriesReferencing (WHERE ref = ?), and entryOf cannot
// refuse a row the query did not return: the replay's ledger check
// (verify.CheckResult) would not see the seed-reveal and would serve "no
// seed-reveal names the seed commitment", not tied, with 200, a verdict
// the signed leaves do not support (it did, while VerifiedSizeEach read
// no lookup column). The site's check before judging holds the ref
// column to its leaf, so the replay's page and report answer 409
// (altered), or would give the leaves' verdict (tied, seed revealed at
// entry 1).
func TestReplayTieRefColumnNulled(t *testing.T) {
	f := newTieFixture(t)
	addTiedMatch(t, f)
	if r := getReport(t, f.server(t, nil), "2"); r.Ledger == nil || !r.Ledger.Tied || r.Ledger.SeedReveal != 1 {
		t.Fatalf("before tampering: %+v", r)
	}
	ts := tamperFixture(t, f, `UPDATE entries SET ref = NULL WHERE idx = `+itoa(f.idx["sr"]))
	for _, path := range []string{"/api/v1/replays/2/report", "/replay/2"} {
		w := do(ts, "GET", path, "")
		body := w.Body.String()
		if w.Code == http.StatusConflict && strings.Contains(body, "altered") {
			continue
		}
		if w.Code != http.StatusOK || strings.Contains(body, "no seed-reveal names the seed commitment") {
			t.Errorf("%s with the seed-reveal's ref column set to NULL: %d; want 409 or the leaves' verdict (tied), got:\n%.600s", path, w.Code, body)
		}
	}
}

// TestJudgeStrayRowFarPastTheEnd (trial 14): one row copied to index
// 1<<60 in the database (as someone with write access to the file can)
// makes the store's size (max(idx)+1) enormous; judgeCache.extend once
// sized the history's posts from it and panicked (makeslice: cap out of
// range: 500 on every commitment lookup; with the row at 1e11, sealed
// serve died of a fatal "runtime: out of memory" before it listened). It
// sizes them from the signed checkpoint: the lookups answer with the
// judgement of the signed entries (the row past the checkpoint is not
// judged), or 409.
func TestJudgeStrayRowFarPastTheEnd(t *testing.T) {
	f := newFixture(t)
	ts := tamperFixture(t, f, `INSERT INTO entries SELECT 1152921504606846976, kind, body, leaf_hash, integrated_at, posted_at, dedup, commitment, ref FROM entries WHERE idx = 8`)
	v := readVector(t, "bid")
	for _, path := range []string{"/api/v1/commitments/" + v.Commitment, "/c/" + v.Commitment} {
		w := do(ts, "GET", path, "")
		if w.Code != http.StatusOK && w.Code != http.StatusConflict {
			t.Errorf("%s with a stray row at index 1<<60: %d %.300s", path, w.Code, w.Body.String())
		}
	}
}
