package tlogclient_test

import (
	"bytes"
	"testing"

	"filippo.io/torchwood"

	"github.com/sealedhq/sealed/ledger/tlogclient"
)

// FuzzSplitBundle: SplitBundle, on an entry bundle a log served, agrees
// with torchwood's reader of c2sp.org/tlog-tiles bundles: it accepts
// exactly the bundles torchwood.ReadTileEntry reads to the end in w
// entries, with the same entries; each entry written back with
// torchwood.AppendTileEntry gives the bundle again
// (go test -run '^$' -fuzz '^FuzzSplitBundle$' ./ledger/tlogclient).
func FuzzSplitBundle(f *testing.F) {
	f.Add([]byte{0, 1, 'a', 0, 0, 0, 2, 'b', 'c'}, uint8(3))
	f.Add([]byte{0, 1, 'a'}, uint8(2))
	f.Add([]byte{0, 5, 'a'}, uint8(1))
	f.Add([]byte{0}, uint8(1))
	f.Add([]byte{}, uint8(0))
	f.Add([]byte{}, uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, w8 uint8) {
		w := int(w8)
		got, err := tlogclient.SplitBundle(b, w)
		var want [][]byte
		rest := b
		ok := true
		for len(rest) > 0 {
			e, r, err := torchwood.ReadTileEntry(rest)
			if err != nil {
				ok = false
				break
			}
			want, rest = append(want, e), r
		}
		ok = ok && len(want) == w
		if (err == nil) != ok {
			t.Fatalf("SplitBundle(%x, %d): %d entries, %v; torchwood reads %d entries, to the end: %v", b, w, len(got), err, len(want), ok)
		}
		if err != nil {
			return
		}
		var again []byte
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("SplitBundle(%x): entry %d %x, torchwood %x", b, i, got[i], want[i])
			}
			again, _ = torchwood.AppendTileEntry(again, got[i])
		}
		if !bytes.Equal(again, b) {
			t.Fatalf("SplitBundle(%x): entries written back as %x", b, again)
		}
	})
}
