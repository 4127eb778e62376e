package pgstore_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/sealedhq/sealed/internal/pgtest"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/pgstore"
)

// TestAuditTamperedBody: one byte of an entry body changed in the
// database (the triggers disabled by the superuser) is reported by the
// audit, naming that entry.
func TestAuditTamperedBody(t *testing.T) {
	ctx := context.Background()
	url, key := newLedger(t)
	l := mustOpen(t, url, ledger.Options{KeyFile: key})
	for i := range int64(10) {
		if _, err := l.Append(ctx, commitBody("tamper", i)); err != nil {
			t.Fatal(err)
		}
	}
	if rep, err := l.Audit(ctx, nil); err != nil || !rep.OK || rep.Size != 10 {
		t.Fatalf("audit before tampering: %+v, %v", rep, err)
	}
	l.Close()

	const victim = 5
	s := openStore(t, url, pgstore.Options{ReadOnly: true})
	es, err := s.EntryRange(ctx, victim, victim+1)
	if err != nil || len(es) != 1 {
		t.Fatalf("EntryRange: %v, %v", es, err)
	}
	// The player's name p5 becomes x5: still a valid body.
	off := bytes.Index(es[0].Leaf, []byte(`"player":"p5"`))
	if off < 0 {
		t.Fatalf("entry %d: no player p5 in %s", victim, es[0].Leaf)
	}
	off += len(`"player":"`)
	if err := pgtest.Exec(t, url, `UPDATE entries SET body = set_byte(body, 0, 0) WHERE idx = 5`); err == nil {
		t.Fatal("an UPDATE of entries was not refused")
	}
	if err := pgtest.Exec(t, url,
		`ALTER TABLE entries DISABLE TRIGGER ALL`,
		fmt.Sprintf(`UPDATE entries SET body = set_byte(body, %d, ascii('x')) WHERE idx = %d`, off, victim),
		`ALTER TABLE entries ENABLE TRIGGER ALL`,
	); err != nil {
		t.Fatal(err)
	}
	es, err = s.EntryRange(ctx, victim, victim+1)
	if err != nil || !bytes.Contains(es[0].Leaf, []byte(`"player":"x5"`)) {
		t.Fatalf("the body was not changed: %s, %v", es[0].Leaf, err)
	}

	l = mustOpen(t, url, ledger.Options{ReadOnly: true})
	rep, err := l.Audit(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || rep.Problem == nil || rep.Problem.Index != victim {
		t.Fatalf("audit after changing entry %d: %+v (problem %v); want a problem at entry %d", victim, rep, rep.Problem, victim)
	}
	t.Logf("audit: %v", rep.Problem)
}
