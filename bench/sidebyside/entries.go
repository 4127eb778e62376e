package sidebyside

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/sealedhq/sealed/ledger"
)

// Entry is one generated entry: the commit body a player's client sends
// (what sealed's Append and Tessera's Add are given), with the fields the
// raw inserts need to write the row sealed would write.
type Entry struct {
	Player     string
	Commitment string // lowercase hex SHA-256 of Player: random-looking, as real commitments are
	Body       []byte // {"kind":"commit","player":...,"action_type":"bid","channel":"#auctions","commitment":...}
}

// entryFormat names the generator: cached ledgers made by another version
// are rebuilt.
const entryFormat = "commit-v1"

// NewEntry is entry k of a run. With players > 0 the player is "p<k mod
// players>" (a game's few players, as web's benchmarks use); with players
// == 0 every entry has its own player "b<k>" (ledger/bench_test.go's
// randomCommit). The commitment is SHA-256 of "<player>/<k>" in hex, so
// commitments are distinct and look random either way. The leaf sealed
// makes of the body (with integrated_at) is about 200 bytes.
func NewEntry(k, players int) Entry {
	player := fmt.Sprintf("b%d", k)
	if players > 0 {
		player = fmt.Sprintf("p%d", k%players)
	}
	c := sha256.Sum256(fmt.Appendf(nil, "%s/%d", player, k))
	e := Entry{Player: player, Commitment: hex.EncodeToString(c[:])}
	e.Body = fmt.Appendf(nil, `{"kind":"commit","player":%q,"action_type":"bid","channel":"#auctions","commitment":%q}`, e.Player, e.Commitment)
	return e
}

// Entries returns entries 0..n-1 of NewEntry.
func Entries(n, players int) []Entry {
	es := make([]Entry, n)
	for k := range es {
		es[k] = NewEntry(k, players)
	}
	return es
}

// Leaf is the leaf sealed stores for e integrated at t: the RFC 8785
// canonical JSON of the body with integrated_at (members in code-point
// order; the generated strings need no escaping), as docs/ledger.md
// defines it. The side-by-side test checks it byte for byte against what
// sealed stores.
func (e *Entry) Leaf(t time.Time) []byte {
	return fmt.Appendf(nil, `{"action_type":"bid","channel":"#auctions","commitment":"%s","integrated_at":"%s","kind":"commit","player":"%s"}`,
		e.Commitment, t.UTC().Format(ledger.TimeLayout), e.Player)
}

// Dedup is the duplicate key sealed stores for a commit: SHA-256 of kind,
// player, action type and commitment, each followed by a zero byte
// (docs/ledger.md "Duplicates").
func (e *Entry) Dedup() [32]byte {
	buf := make([]byte, 0, 128)
	for _, s := range [...]string{"commit", e.Player, "bid", e.Commitment} {
		buf = append(buf, s...)
		buf = append(buf, 0)
	}
	return sha256.Sum256(buf)
}
