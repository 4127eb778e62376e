package ledger_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/sealedhq/sealed/ledger"
	"go.mau.fi/util/confusable"
)

// TestSkeletonConfusablesData: Skeleton maps characters as lines of
// Unicode's confusables.txt (UTS #39, version 17.0.0) say, quoted here
// ("source ; prototype ; MA # ..."), and names built from them share a
// skeleton; letter case is not folded (UTS #39 skeletons keep it).
func TestSkeletonConfusablesData(t *testing.T) {
	for _, c := range []struct {
		line      string // the confusables.txt line
		src, want string
	}{
		{"0430 ;	0061 ;	MA	# ( а → a ) CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A", "\u0430", "a"},
		{"0031 ;	006C ;	MA	# ( 1 → l ) DIGIT ONE → LATIN SMALL LETTER L", "1", "l"},
		{"0049 ;	006C ;	MA	# ( I → l ) LATIN CAPITAL LETTER I → LATIN SMALL LETTER L", "I", "l"},
		{"006D ;	0072 006E ;	MA	# ( m → rn ) LATIN SMALL LETTER M → LATIN SMALL LETTER R, LATIN SMALL LETTER N", "m", "rn"},
		{"0030 ;	004F ;	MA	# ( 0 → O ) DIGIT ZERO → LATIN CAPITAL LETTER O", "0", "O"},
		{"0440 ;	0070 ;	MA	# ( р → p ) CYRILLIC SMALL LETTER ER → LATIN SMALL LETTER P", "\u0440", "p"},
		{"03BF ;	006F ;	MA	# ( ο → o ) GREEK SMALL LETTER OMICRON → LATIN SMALL LETTER O", "\u03bf", "o"},
		{"FF41 ;	0061 ;	MA	# ( ａ → a ) FULLWIDTH LATIN SMALL LETTER A → LATIN SMALL LETTER A", "\uff41", "a"},
		{"1D41A ;	0061 ;	MA	# ( 𝐚 → a ) MATHEMATICAL BOLD SMALL A → LATIN SMALL LETTER A", "\U0001d41a", "a"},
	} {
		if got := ledger.Skeleton(c.src); got != c.want {
			t.Errorf("Skeleton(%+q) = %+q; want %+q (confusables.txt: %s)", c.src, got, c.want, c.line)
		}
	}
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"\u0430lice", "alice", true},          // 0430 -> a
		{"paypa1", "paypal", true},             // 0031 -> l
		{"paypaI", "paypa1", true},             // 0049 and 0031 -> l
		{"modern", "rnodern", true},            // 006D -> r n
		{"b\u03bfb", "bob", true},              // 03BF -> o
		{"\uff41lice", "alice", true},          // FF41 -> a
		{"Alice", "alice", false},              // case is kept
		{"PayPal", "paypal", false},            // P and p have no common prototype
		{"alice", "alicia", false},             // different letters
		{"\u0430lice", "\u0430lice", true},     // a name is its own lookalike
		{"zo\u00eb", "zoe\u0308", true},        // NFD first: ë is e + U+0308
		{"\u0410lice", "\u0391lice", true},     // Cyrillic and Greek capital A -> A
		{"\u0430lice", "\u0410lice", false},    // small and capital stay apart
		{"player-1", "player-l", true},         // 0031 -> l
		{"player_0", "player_O", true},         // 0030 -> O
		{"\u0440\u0430ypal", "paypal", true},   // 0440 -> p, 0430 -> a
		{"\U0001d41alice", "\u0430lice", true}, // both -> a
	} {
		if got := ledger.Skeleton(c.a) == ledger.Skeleton(c.b); got != c.same {
			t.Errorf("Skeleton(%+q) = %+q, Skeleton(%+q) = %+q: same %v, want %v", c.a, ledger.Skeleton(c.a), c.b, ledger.Skeleton(c.b), got, c.same)
		}
	}
}

// TestSkeletonTableIsConfusables17 pins the confusables data the stored
// skeletons rest on (the players table; the audit re-derives them): the
// library's table, every code point with a prototype written
// "XXXX;YYYY ZZZZ\n" in code point order, must hash to the SHA-256 of
// the same text made from confusables.txt 17.0.0 (6565 mappings) by:
//
//	python3 -c 'import hashlib,sys; r=sorted((int(p[0],16),
//	  " ".join("%04X"%int(h,16) for h in p[1].split())) for p in
//	  (l.split("#",1)[0].split(";") for l in open(sys.argv[1],
//	  encoding="utf-8-sig")) if len(p)>=3); print(len(r), hashlib.sha256(
//	  "".join("%04X;%s\n"%x for x in r).encode()).hexdigest())' confusables.txt
//
// A dependency update that changes the table fails here: changing it
// needs a schema migration that re-derives the players table.
func TestSkeletonTableIsConfusables17(t *testing.T) {
	const want = "210d531fbb3bbea45e46494016539e220b5ec3cd171cf6439077e7fbae3a58ef"
	h := sha256.New()
	n := 0
	for r := rune(0); r <= utf8.MaxRune; r++ {
		p := confusable.GetReplacement(r)
		if p == "" {
			continue
		}
		n++
		var hexes []string
		for _, c := range p {
			hexes = append(hexes, fmt.Sprintf("%04X", c))
		}
		fmt.Fprintf(h, "%04X;%s\n", r, strings.Join(hexes, " "))
	}
	if got := hex.EncodeToString(h.Sum(nil)); n != 6565 || got != want {
		t.Fatalf("the confusables table has %d mappings hashing to %s; want confusables.txt 17.0.0's 6565, %s", n, got, want)
	}
}

func commitOf(player string, i int) []byte {
	return []byte(fmt.Sprintf(`{"kind":"commit","player":%q,"action_type":"bid","channel":"#c","commitment":"%064x"}`, player, i))
}

// TestConfusablePlayers: a commit naming a new player whose name renders
// like an existing player's is refused by Append with both names and
// the skeleton; the same name again is fine, and so is a name of another
// skeleton. Names with invisible or filler characters (issue 10's
// examples) are refused as bad bodies before any skeleton is taken. The
// audit is clean afterwards.
func TestConfusablePlayers(t *testing.T) {
	ctx := context.Background()
	l, _, _ := newTestLedger(t, ledger.Options{})
	mustAppend := func(player string, i int) int64 {
		t.Helper()
		idx, err := l.Append(ctx, commitOf(player, i))
		if err != nil {
			t.Fatalf("commit by %+q: %v", player, err)
		}
		return idx
	}
	refused := func(player string, i int, existing string, index int64, skeleton string) {
		t.Helper()
		_, err := l.Append(ctx, commitOf(player, i))
		var ce *ledger.ConfusableNameError
		if !errors.As(err, &ce) {
			t.Fatalf("commit by %+q: %v; want a ConfusableNameError", player, err)
		}
		if ce.Player != player || ce.Existing != existing || ce.Index != index || ce.Skeleton != skeleton {
			t.Errorf("commit by %+q: %+v; want existing %q at %d, skeleton %q", player, ce, existing, index, skeleton)
		}
		for _, s := range []string{fmt.Sprintf("%q", player), fmt.Sprintf("%q", existing), fmt.Sprintf("%q", skeleton), fmt.Sprintf("entry %d", index)} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("error %q does not name %s", err, s)
			}
		}
	}
	alice := mustAppend("alice", 1)
	refused("\u0430lice", 2, "alice", alice, "alice")
	mustAppend("alice", 3) // the same player again
	paypal := mustAppend("paypal", 4)
	refused("paypa1", 5, "paypal", paypal, "paypal")
	refused("paypaI", 6, "paypal", paypal, "paypal")
	mustAppend("Alice", 7) // case is kept: another skeleton
	modern := mustAppend("rnodern", 8)
	refused("modern", 9, "rnodern", modern, "rnodern")
	for name, r := range map[string]rune{"alice\u034f": 0x34f, "alice\u2800": 0x2800, "\u3164alice": 0x3164, "alice\u115f": 0x115f, "al\u200bice": 0x200b} {
		_, err := l.Append(ctx, commitOf(name, 10))
		var be *ledger.BodyError
		if !errors.As(err, &be) || be.Field != "player" || !strings.Contains(err.Error(), fmt.Sprintf("%U", r)) {
			t.Errorf("commit by %+q: %v; want a bad player naming %U", name, err, r)
		}
	}
	// A reveal names its commit's player: no players row, no refusal.
	if _, err := l.Append(ctx, []byte(fmt.Sprintf(`{"kind":"reveal","player":"alice","commit":%d,"text":"x"}`, alice))); err != nil {
		t.Fatal(err)
	}
	// Concurrent commits by two lookalike new players: exactly one is
	// taken, whichever the sequencer orders first.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for k, name := range []string{"bob", "b\u03bfb"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[k] = l.Append(ctx, commitOf(name, 20+k))
		}()
	}
	wg.Wait()
	var ce *ledger.ConfusableNameError
	if (errs[0] == nil) == (errs[1] == nil) || !(errors.As(errs[0], &ce) || errors.As(errs[1], &ce)) {
		t.Errorf("concurrent lookalike players: %v, %v; want one taken and one refused", errs[0], errs[1])
	}
	for name, want := range map[string]string{"\u0430lice": "alice", "paypa1": "paypal", "carol": ""} {
		p, err := l.PlayerLike(name)
		switch {
		case want == "" && !errors.Is(err, ledger.ErrNotFound):
			t.Errorf("PlayerLike(%q) = %v, %v; want ErrNotFound", name, p, err)
		case want != "" && (err != nil || p.Player != want):
			t.Errorf("PlayerLike(%q) = %v, %v; want %q", name, p, err, want)
		}
	}
	if rep, err := l.Audit(ctx, nil); err != nil || !rep.OK {
		t.Fatalf("audit: %+v, %v", rep, err)
	}
}
