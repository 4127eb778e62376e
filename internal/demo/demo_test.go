package demo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/rules/secret"
)

func utc(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestBuild builds the demo "now" on Wednesday 2026-03-11, so the week
// recorded is 2026-W10 (Monday 2026-03-02 to Sunday 03-08, UTC), the week
// rules/lots TestWeek works by hand. Expected: see week.go.
func TestBuild(t *testing.T) {
	path := filepath.Join(t.TempDir(), "demo.db")
	s, err := Build(context.Background(), Options{Path: path, Now: utc(t, "2026-03-11T10:00:00Z")})
	if err != nil {
		t.Fatal(err)
	}
	if !s.OK() {
		t.Fatalf("problems: %v", s.Problems)
	}
	if s.Week != "2026-W10" || s.Size != 27 || s.Checkpoint.Size != 27 || !s.Audit.OK || s.Audit.Size != 27 {
		t.Fatalf("week %s, size %d, checkpoint %d, audit %+v", s.Week, s.Size, s.Checkpoint.Size, s.Audit)
	}
	want := map[ledger.Kind]int{ledger.KindSeedCommit: 4, ledger.KindSeedReveal: 3, ledger.KindResult: 3, ledger.KindContribution: 2, ledger.KindCommit: 7, ledger.KindEdit: 1, ledger.KindReveal: 7}
	for k, n := range want {
		if s.Entries[k] != n {
			t.Errorf("%d %s entries, want %d", s.Entries[k], k, n)
		}
	}
	for _, m := range s.Matches {
		if !m.SeedOK || !m.Clean || m.SeedCommit >= m.SeedReveal || m.SeedReveal >= m.Result {
			t.Errorf("match %+v", m)
		}
	}
	states := map[string]string{}
	for _, a := range s.Actions {
		key := a.Player
		if a.Index == 15 {
			key = "bob-again"
		}
		states[key] = string(a.State) + " " + string(a.Reason)
	}
	for who, st := range map[string]string{
		"alice": "revealed ", "bob": "revealed ", "erin": "revealed ",
		"carol":     "failed " + string(secret.EditedBeforeMaturation),
		"bob-again": "failed " + string(secret.AttemptOutstanding),
		"dan":       "failed " + string(secret.NotRevealed),
		"frank":     "failed " + string(secret.NotRevealed),
	} {
		if states[who] != st {
			t.Errorf("%s: %q, want %q", who, states[who], st)
		}
	}
	// Worked by hand (week.go): lot 1 to alice at 15 (tie with bob, earlier
	// post, S7), lot 2 to alice at 5; erin's flush places first.
	out := s.Lots.Outcome
	if s.Lots.At != utc(t, "2026-03-08T00:00:00Z") || out.Lots[0].Winner != "alice" || out.Lots[0].Price != 15 || out.Lots[1].Winner != "alice" || out.Lots[1].Price != 5 {
		t.Errorf("lots at %s: %+v", s.Lots.At, out.Lots)
	}
	for p, n := range map[string]int64{"alice": 10, "bob": 40, "carol": 25, "dan": 10, "erin": 10, "frank": 20} {
		if out.Points[p] != n {
			t.Errorf("points of %s: %d, want %d", p, out.Points[p], n)
		}
	}

	// The times are the script's, in ledger order.
	l, err := stores.Open(context.Background(), path, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	es, err := l.Entries(0, 100)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(es); i++ {
		if es[i].IntegratedAt.Before(es[i-1].IntegratedAt) {
			t.Errorf("entry %d at %s is before entry %d", i, es[i].IntegratedAt, i-1)
		}
	}
	for n, when := range map[int64]string{0: "2023-09-15T10:59:00Z", 3: "2023-09-15T10:59:40Z", 6: "2026-03-02T08:00:00Z", 8: "2026-03-02T09:00:00Z", 16: "2026-03-03T11:00:00Z", 26: "2026-03-08T00:30:00Z"} {
		if !es[n].IntegratedAt.Equal(utc(t, when)) {
			t.Errorf("entry %d integrated at %s, want %s", n, es[n].IntegratedAt, when)
		}
	}
	if es[24].Kind != ledger.KindReveal {
		t.Fatalf("entry 24 is %s", es[24].Kind)
	}
	b, _ := es[24].Body()
	if b.Player != "frank" || b.Text == nil || (*b.Text)[len(*b.Text)-1] != '\n' {
		t.Errorf("entry 24: %+v, want frank's reveal with a trailing newline", b)
	}

	// The summary says why frank failed although he revealed: his reveal
	// (entry 24, week.go) has a trailing LF his commitment was not made
	// over, so it matches only with that LF removed.
	var text strings.Builder
	if err := s.WriteText(&text, ""); err != nil {
		t.Fatal(err)
	}
	line := ""
	for l := range strings.Lines(text.String()) {
		if strings.HasPrefix(l, "  entry") && strings.Contains(l, " frank ") {
			line = l
		}
	}
	const why = "failed: not revealed by the revelation date; reveal entry 24 does not hash to the commitment; it would with trailing LF removed"
	if !strings.Contains(line, why) {
		t.Errorf("frank's summary line %q does not say %q", line, why)
	}
	for _, a := range s.Actions {
		if a.Player == "dan" && len(a.RevealNotes) != 0 {
			t.Errorf("dan never revealed, yet: %v", a.RevealNotes)
		}
	}
}

// TestBuildReplacesOnlyDemo: a second Build refuses an existing demo
// ledger without Force (it may be served, with entries posted to it), and
// with Force replaces it only while it holds nothing but the demo's own 27
// entries and is not being served; any other file at the path is refused
// and left as it was.
func TestBuildReplacesOnlyDemo(t *testing.T) {
	dir := t.TempDir()
	now := utc(t, "2026-03-11T10:00:00Z")
	path := filepath.Join(dir, "demo.db")
	if s, err := Build(context.Background(), Options{Path: path, Now: now}); err != nil || !s.OK() || s.Size != 27 {
		t.Fatalf("build: %v %+v", err, s)
	}
	if _, err := Build(context.Background(), Options{Path: path, Now: now}); !errors.Is(err, ErrExists) {
		t.Fatalf("second build without Force: %v, want ErrExists", err)
	}
	if s, err := Build(context.Background(), Options{Path: path, Now: now, Force: true}); err != nil || !s.OK() || s.Size != 27 {
		t.Fatalf("build with Force: %v %+v", err, s)
	}

	// Served: refused even with Force, until the server lets go.
	release, err := Hold(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(context.Background(), Options{Path: path, Now: now, Force: true}); !errors.Is(err, ErrInUse) {
		t.Errorf("build with Force on a held ledger: %v, want ErrInUse", err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}

	// An entry posted to it (as through the served write API) is the
	// user's: refused even with Force, and the ledger keeps all 28.
	tok, err := WriteToken(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := stores.Open(context.Background(), path, ledger.Options{KeyFile: KeyFile(path)})
	if err != nil {
		t.Fatal(err)
	}
	// printf '' | sha256sum
	if _, err := w.AppendBody(context.Background(), &ledger.Body{Kind: ledger.KindCommit, Player: "you", ActionType: "bid", Channel: "#auctions",
		Commitment: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, force := range []bool{false, true} {
		if _, err := Build(context.Background(), Options{Path: path, Now: now, Force: force}); !errors.Is(err, ErrPosted) {
			t.Errorf("build (Force %v) over a posted entry: %v, want ErrPosted", force, err)
		}
	}
	r, err := stores.Open(context.Background(), path, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := r.Size(); err != nil || n != 28 {
		t.Errorf("after the refusal the ledger has %d entries (%v), want 28", n, err)
	}
	r.Close()
	if b, err := os.ReadFile(TokenFile(path)); err != nil || string(b) != tok+"\n" {
		t.Errorf("token file after the refusal: %q %v", b, err)
	}

	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("my notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.db")
	if _, err := stores.Init(context.Background(), other, "example.com/log", filepath.Join(dir, "other.key")); err != nil {
		t.Fatal(err)
	}
	lonely := filepath.Join(dir, "fresh.db")
	if err := os.WriteFile(KeyFile(lonely), []byte("a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{notes, other, lonely} {
		if _, err := Build(context.Background(), Options{Path: p, Now: now}); !errors.Is(err, ErrNotDemo) {
			t.Errorf("%s: %v, want ErrNotDemo", p, err)
		}
	}
	if b, _ := os.ReadFile(notes); string(b) != "my notes" {
		t.Errorf("notes.txt changed: %q", b)
	}
	l, err := stores.Open(context.Background(), other, ledger.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("the other ledger: %v", err)
	}
	l.Close()
}

// TestWriteToken: 32 random bytes in base64url (43 characters), mode 0600.
func TestWriteToken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.db")
	a, err := WriteToken(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := WriteToken(path)
	fi, err := os.Stat(TokenFile(path))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(TokenFile(path))
	if len(a) != 43 || a == b || string(got) != b+"\n" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("tokens %q %q, file %q mode %v", a, b, got, fi.Mode())
	}
}
