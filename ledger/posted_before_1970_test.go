package ledger_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// TestPostedAtBefore1970: posted_at times before the Unix epoch (negative
// Unix nanoseconds, down to the first time an int64 of nanoseconds
// holds, 1677-09-21T00:12:43.145224192Z) are stored as they are: the
// entry reads back with its time, the audit is clean and the log goes on.
// (A time before 1970 was once stored as "no posted_at", which the audit
// then reported as an altered database, for good.)
func TestPostedAtBefore1970(t *testing.T) {
	ctx := context.Background()
	l, db, _ := newTestLedger(t, ledger.Options{})
	times := []string{
		"1969-12-31T23:59:59.999999999Z",
		"1969-12-31T23:59:59.000000000Z",
		"1970-01-01T00:00:00.000000000Z",
		"1677-09-21T00:12:44.000000000Z",
		"1677-09-21T00:12:43.145224192Z",
	}
	for i, ts := range times {
		body := fmt.Sprintf(`{"kind":"commit","player":"old%d","action_type":"bid","channel":"#auctions","commitment":"%064x","posted_at":%q}`, i, 7000+i, ts)
		idx, err := l.Append(ctx, []byte(body))
		if err != nil {
			t.Fatalf("append posted_at %s: %v", ts, err)
		}
		e, err := l.Entry(idx)
		if err != nil {
			t.Fatalf("entry %d (posted_at %s): %v", idx, ts, err)
		}
		want, _ := time.Parse(time.RFC3339Nano, ts)
		if !e.PostedAt.Equal(want) {
			t.Fatalf("entry %d: posted_at %v, want %s", idx, e.PostedAt, ts)
		}
	}
	if _, err := l.Append(ctx, []byte(commitBody("after", fmt.Sprintf("%064x", 7100)))); err != nil {
		t.Fatalf("append after the old times: %v", err)
	}
	rep, err := l.Audit(ctx, nil)
	if err != nil || !rep.OK {
		t.Fatalf("audit: %+v %v", rep, err)
	}
	l.Close()
	ro, err := openLedger(t, db, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if rep, err := ro.Audit(ctx, nil); err != nil || !rep.OK {
		t.Fatalf("audit of the file: %+v %v", rep, err)
	}
}
